// The Arrow arrays of a scan with several threads (arrow_stream.h): the scan runs on its own
// thread(s) while the stream's consumer works, each batch built into its ArrowArray by the thread
// that decoded it, and a few arrays queued for get_next. Internal to the Arrow export.
#ifndef TSREAD_ARROW_PRODUCED_ARRAYS_H_
#define TSREAD_ARROW_PRODUCED_ARRAYS_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "tsread/arrow/arrow_stream.h"
#include "tsread/arrow/buffer_pool.h"
#include "tsread/arrow/c_data_interface.h"
#include "tsread/read/projection.h"
#include "tsread/read/table_reader.h"

namespace tsread {
namespace arrow_internal {

class ProducedArrays {
 public:
  using Consumer = std::function<absl::Status(int worker, TableBatch&)>;
  // Runs the scan with a consumer (e.g. a DatasetScanner's Scan, ordered or not).
  using ScanFn = std::function<absl::Status(const Consumer&)>;

  // `projection` must outlive this; at most `capacity` built arrays wait for Next.
  ProducedArrays(ScanFn scan, const std::vector<ProjectedColumn>* projection, ArrowExportOptions options,
                 std::shared_ptr<BufferPool> pool, size_t capacity);
  // Stops the scan (its workers finish the batch at hand) and waits for it; releases the arrays
  // not taken.
  ~ProducedArrays();
  ProducedArrays(const ProducedArrays&) = delete;
  ProducedArrays& operator=(const ProducedArrays&) = delete;

  // Fills `out` with the next array in the scan's delivery order (out->release == nullptr at the
  // end), or returns the scan's error once every array before it was taken. The scan starts on
  // the first call.
  absl::Status Next(ArrowArray* out);

 private:
  void Run();
  absl::Status Produce(TableBatch& batch);

  const ScanFn scan_;
  const std::vector<ProjectedColumn>* const projection_;
  const ArrowExportOptions options_;
  const std::shared_ptr<BufferPool> pool_;
  const size_t capacity_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<ArrowArray> ready_;
  bool started_ = false;
  bool done_ = false;
  bool stop_ = false;
  absl::Status status_;
  std::thread thread_;
};

}  // namespace arrow_internal
}  // namespace tsread

#endif  // TSREAD_ARROW_PRODUCED_ARRAYS_H_
