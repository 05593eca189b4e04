// The Arrow arrays of a scan with several threads (produced_arrays.h): a bounded queue between the
// scan's delivering threads and the stream's consumer.
#include "tsread/arrow/produced_arrays.h"

#include <exception>
#include <new>
#include <string>
#include <utility>

#include "tsread/arrow/arrow_array.h"

namespace tsread {
namespace arrow_internal {

ProducedArrays::ProducedArrays(ScanFn scan, const std::vector<ProjectedColumn>* projection, ArrowExportOptions options,
                               std::shared_ptr<BufferPool> pool, size_t capacity)
    : scan_(std::move(scan)),
      projection_(projection),
      options_(std::move(options)),
      pool_(std::move(pool)),
      capacity_(capacity) {}

ProducedArrays::~ProducedArrays() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  for (ArrowArray& array : ready_) array.release(&array);
}

absl::Status ProducedArrays::Next(ArrowArray* out) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!started_) {
    started_ = true;
    thread_ = std::thread([this] { Run(); });
  }
  changed_.wait(lock, [&] { return !ready_.empty() || done_; });
  if (!ready_.empty()) {
    *out = ready_.front();
    ready_.pop_front();
    changed_.notify_all();
    return absl::OkStatus();
  }
  out->release = nullptr;
  return status_;
}

// Called by the scan's delivering threads (concurrently when unordered): the batch's buffers
// handed over to an array, which waits for room in the queue.
absl::Status ProducedArrays::Produce(TableBatch& batch) {
  ArrowArray array{};
  absl::Status built;
  try {
    built = BuildBatch(*projection_, options_, batch, pool_, &array);
  } catch (const std::bad_alloc&) {
    built = absl::ResourceExhaustedError("out of memory while building a batch");
  }
  if (!built.ok()) {
    if (array.release != nullptr) array.release(&array);
    return built;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return stop_ || ready_.size() < capacity_; });
  if (stop_) {
    lock.unlock();
    array.release(&array);
    return absl::CancelledError("the stream was released");
  }
  ready_.push_back(array);
  changed_.notify_all();
  return absl::OkStatus();
}

void ProducedArrays::Run() {
  absl::Status status;
  try {
    status = scan_([this](int, TableBatch& batch) { return Produce(batch); });
  } catch (const std::bad_alloc&) {
    status = absl::ResourceExhaustedError("out of memory while scanning");
  } catch (const std::exception& e) {
    status = absl::InternalError(std::string("unexpected exception while scanning: ") + e.what());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  done_ = true;
  status_ = std::move(status);
  changed_.notify_all();
}

}  // namespace arrow_internal
}  // namespace tsread
