// The arrays of an unordered threaded stream (parallel_arrays.h): the split sources, the workers'
// loop and the consumer's get_next.
#include "tsread/arrow/parallel_arrays.h"

#include <exception>
#include <new>
#include <utility>

#include "tsread/arrow/arrow_array.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace arrow_internal {
namespace {

class ScannerSplits : public SplitSource {
 public:
  ScannerSplits(std::shared_ptr<const TableScanner> scanner, int threads)
      : scanner_(std::move(scanner)), splits_(scanner_->ShrinkingSplits(static_cast<size_t>(threads))) {}

  absl::StatusOr<std::optional<SplitWork>> Next() override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (next_ >= splits_.size()) return std::nullopt;
    return SplitWork{scanner_, scanner_.get(), splits_[next_++], ""};
  }

 private:
  const std::shared_ptr<const TableScanner> scanner_;
  const std::vector<ScanSplit> splits_;
  std::mutex mutex_;
  size_t next_ = 0;
};

// A file is planned (its device index walked) outside the lock by the participant that found no
// split queued, as DatasetScanner's own unordered scan does; the others wait for its splits.
class DatasetSplits : public SplitSource {
 public:
  DatasetSplits(const DatasetScanner* scanner, int threads) : scanner_(scanner), threads_(threads) {}

  absl::StatusOr<std::optional<SplitWork>> Next() override {
    std::unique_lock<std::mutex> lock(mutex_);
    const size_t files = scanner_->dataset().files().size();
    while (true) {
      if (!queue_.empty()) {
        SplitWork work = std::move(queue_.front());
        queue_.pop_front();
        return work;
      }
      if (next_file_ >= files) {
        if (planning_ == 0) return std::nullopt;
        planned_.wait(lock, [&] { return !queue_.empty() || planning_ == 0; });
        continue;
      }
      const size_t f = next_file_++;
      ++planning_;
      lock.unlock();
      absl::StatusOr<std::optional<DatasetScanner::FileScan>> plan = scanner_->PlanFile(f, 1);
      lock.lock();
      --planning_;
      planned_.notify_all();
      const std::string& path = scanner_->dataset().files()[f].path;
      if (!plan.ok()) return WithFileName(plan.status(), path);
      if (!plan->has_value()) continue;  // the file cannot contribute rows
      auto file = std::make_shared<DatasetScanner::FileScan>(std::move(**plan));
      for (const ScanSplit& split : file->scanner->ShrinkingSplits(static_cast<size_t>(threads_))) {
        queue_.push_back(SplitWork{file, file->scanner.get(), split, path});
      }
    }
  }

 private:
  const DatasetScanner* const scanner_;
  const int threads_;
  std::mutex mutex_;
  std::condition_variable planned_;
  std::deque<SplitWork> queue_;
  size_t next_file_ = 0;
  int planning_ = 0;
};

}  // namespace

std::unique_ptr<SplitSource> SplitsOfScanner(std::shared_ptr<const TableScanner> scanner, int threads) {
  return std::make_unique<ScannerSplits>(std::move(scanner), threads);
}

std::unique_ptr<SplitSource> SplitsOfDataset(const DatasetScanner* scanner, int threads) {
  return std::make_unique<DatasetSplits>(scanner, threads);
}

ParallelArrays::ParallelArrays(std::unique_ptr<SplitSource> splits, int threads,
                               const std::vector<ProjectedColumn>* projection, ArrowExportOptions options,
                               std::shared_ptr<BufferPool> pool, size_t capacity)
    : splits_(std::move(splits)),
      threads_(threads),
      projection_(projection),
      options_(std::move(options)),
      pool_(std::move(pool)),
      capacity_(capacity) {}

ParallelArrays::~ParallelArrays() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  // What the consumer's cursor holds of a memory budget, given back first: a worker may wait for it.
  consumer_.cursor.reset();
  consumer_.work.reset();
  for (std::thread& worker : workers_) worker.join();
  for (ArrowArray& array : ready_) array.release(&array);
}

absl::StatusOr<bool> ParallelArrays::NextSplit(Reader& reader) {
  TSREAD_ASSIGN_OR_RETURN(std::optional<SplitWork> work, splits_->Next());
  if (!work.has_value()) return false;
  // The split read before is let go only once the cursor has moved off its scanner.
  std::optional<SplitWork> previous = std::move(reader.work);
  reader.work = std::move(work);
  absl::Status opened = reader.work->scanner->OpenCursorInto(reader.work->split, reader.cursor);
  previous.reset();
  TSREAD_RETURN_IF_ERROR(opened);
  return true;
}

absl::StatusOr<bool> ParallelArrays::Produce(Reader& reader, ArrowArray* out) {
  out->release = nullptr;
  try {
    while (true) {
      if (!reader.work.has_value()) {
        TSREAD_ASSIGN_OR_RETURN(const bool more, NextSplit(reader));
        if (!more) return false;
      }
      absl::StatusOr<TableBatch*> batch = reader.cursor->Next();
      if (!batch.ok()) {
        return reader.work->path.empty() ? batch.status() : WithFileName(batch.status(), reader.work->path);
      }
      if (*batch == nullptr) {
        reader.work.reset();
        continue;
      }
      absl::Status built = BuildBatch(*projection_, options_, **batch, pool_, out);
      if (!built.ok()) {
        if (out->release != nullptr) out->release(out);
        return built;
      }
      return true;
    }
  } catch (const std::bad_alloc&) {
    if (out->release != nullptr) out->release(out);
    return absl::ResourceExhaustedError("out of memory while building a batch");
  }
}

void ParallelArrays::Fail(absl::Status status) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (error_.ok()) error_ = std::move(status);
  stop_ = true;
  changed_.notify_all();
}

void ParallelArrays::Work() {
  Reader reader;
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stop_) break;
    }
    ArrowArray array{};
    absl::StatusOr<bool> made = Produce(reader, &array);
    if (!made.ok()) {
      Fail(made.status());
      break;
    }
    if (!*made) break;
    std::unique_lock<std::mutex> lock(mutex_);
    if (ready_.size() >= capacity_ && !stop_) {
      // Nothing of a memory budget is held while waiting for the consumer.
      lock.unlock();
      if (reader.cursor.has_value()) reader.cursor->ReleaseMemory();
      lock.lock();
      changed_.wait(lock, [&] { return stop_ || ready_.size() < capacity_; });
    }
    if (stop_) {
      lock.unlock();
      array.release(&array);
      break;
    }
    ready_.push_back(array);
    changed_.notify_all();
  }
  reader.cursor.reset();
  std::lock_guard<std::mutex> lock(mutex_);
  --running_;
  changed_.notify_all();
}

absl::Status ParallelArrays::Next(ArrowArray* out) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!started_) {
    started_ = true;
    running_ = threads_ - 1;
    for (int w = 0; w + 1 < threads_; ++w) workers_.emplace_back([this] { Work(); });
  }
  while (true) {
    if (!ready_.empty()) {
      *out = ready_.front();
      ready_.pop_front();
      changed_.notify_all();
      return absl::OkStatus();
    }
    if (!error_.ok()) return error_;
    if (!consumer_done_) {
      // Nothing ready: the consumer decodes the next batch of its own split.
      lock.unlock();
      absl::StatusOr<bool> made = Produce(consumer_, out);
      if (!made.ok()) {
        Fail(made.status());
        return made.status();
      }
      if (*made) return absl::OkStatus();
      consumer_.cursor.reset();  // gives back what it holds of a memory budget
      lock.lock();
      consumer_done_ = true;
      continue;
    }
    if (running_ == 0) {
      out->release = nullptr;  // every split read
      return error_;
    }
    changed_.wait(lock);
  }
}

}  // namespace arrow_internal
}  // namespace tsread
