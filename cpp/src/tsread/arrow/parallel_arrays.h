// The Arrow arrays of an unordered scan with several threads (arrow_stream.h): background workers
// and the consumer's own get_next calls share the scan's splits. The consumer takes an array a
// worker built when one is ready and otherwise decodes the next batch of its own split, on its own
// thread — so N threads means N - 1 workers, none idle while the consumer works and none competing
// with it for a core, and half the batches reach the consumer still in its cache. (A producer that
// ran every split on its own threads cost twice the native two-thread scan's time on two cores:
// docs/benchmarks.md, "Session 27".) Internal to the Arrow export.
#ifndef TSREAD_ARROW_PARALLEL_ARRAYS_H_
#define TSREAD_ARROW_PARALLEL_ARRAYS_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/arrow/arrow_stream.h"
#include "tsread/arrow/buffer_pool.h"
#include "tsread/arrow/c_data_interface.h"
#include "tsread/read/table_scanner.h"

namespace tsread {
namespace arrow_internal {

// One split of one file's scan: what a participant reads next. `owner` keeps the scanner (and
// its file) alive while the split is read; errors are named by `path` (empty: not renamed).
struct SplitWork {
  std::shared_ptr<const void> owner;
  const TableScanner* scanner = nullptr;
  ScanSplit split;
  std::string path;
};

// Hands out the scan's splits, one per call, nullopt when none is left (thread-safe; it may plan
// a file in the call).
class SplitSource {
 public:
  virtual ~SplitSource() = default;
  virtual absl::StatusOr<std::optional<SplitWork>> Next() = 0;
};

// The splits of one planned file (ShrinkingSplits for `threads` workers).
std::unique_ptr<SplitSource> SplitsOfScanner(std::shared_ptr<const TableScanner> scanner, int threads);
// The splits of every file of a dataset scan, each file planned when its first split is asked for.
std::unique_ptr<SplitSource> SplitsOfDataset(const DatasetScanner* scanner, int threads);

class ParallelArrays {
 public:
  // `threads` participants: threads - 1 workers and the consumer. `projection` must outlive this;
  // at most `capacity` arrays the workers built wait for the consumer.
  ParallelArrays(std::unique_ptr<SplitSource> splits, int threads, const std::vector<ProjectedColumn>* projection,
                 ArrowExportOptions options, std::shared_ptr<BufferPool> pool, size_t capacity);
  // Stops the workers (each finishes its batch at hand) and waits for them; releases the arrays
  // not taken.
  ~ParallelArrays();
  ParallelArrays(const ParallelArrays&) = delete;
  ParallelArrays& operator=(const ParallelArrays&) = delete;

  // Fills `out` with the next array (out->release == nullptr at the end), or returns the first
  // error of any participant. The workers start on the first call.
  absl::Status Next(ArrowArray* out);

 private:
  // A participant's place in the scan: the split it reads, through its one cursor.
  struct Reader {
    std::optional<SplitWork> work;
    std::optional<TableScanner::Cursor> cursor;
  };
  // The next batch of `reader` built into `out`: true with an array, false when no split is left.
  absl::StatusOr<bool> Produce(Reader& reader, ArrowArray* out);
  // Moves `reader` to the next split (false: none left).
  absl::StatusOr<bool> NextSplit(Reader& reader);
  void Work();
  void Fail(absl::Status status);

  const std::unique_ptr<SplitSource> splits_;
  const int threads_;
  const std::vector<ProjectedColumn>* const projection_;
  const ArrowExportOptions options_;
  const std::shared_ptr<BufferPool> pool_;
  const size_t capacity_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<ArrowArray> ready_;
  Reader consumer_;
  int running_ = 0;  // workers not yet finished
  bool started_ = false;
  bool consumer_done_ = false;
  bool stop_ = false;
  absl::Status error_;
  std::vector<std::thread> workers_;
};

}  // namespace arrow_internal
}  // namespace tsread

#endif  // TSREAD_ARROW_PARALLEL_ARRAYS_H_
