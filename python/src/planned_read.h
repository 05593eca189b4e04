// PlannedRead: read_table's scan, with every row written once, straight into its final place.
//
// The metadata says how many rows each split of devices holds (ScanSplit::rows, the time
// column's counts), so before anything is decoded each split gets its slice of every column:
// a split's rows start where the splits before it end. Columns are mapped once at their full
// size (no growth, no copy) and workers fill disjoint slices concurrently, in any order, while
// the result is in scan order (files, then devices, then time) whatever the thread count.
//
// A time range makes splits yield fewer rows than announced: the slices are then closed up at
// the end; when the splits it cuts into hold more than a quarter of the announced rows, the plan
// is refused (nullptr) and the Collector, whose memory follows the rows kept, reads instead. A split yielding more rows than its metadata announced (a lying file) stops the
// planned read, and the caller reads with the Collector instead; so does a plan whose columns
// would be far larger than the input could fill.
#ifndef TSREAD_PYTHON_PLANNED_READ_H_
#define TSREAD_PYTHON_PLANNED_READ_H_

#include <pybind11/pybind11.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "buffer.h"
#include "tsread/dataset/dataset_scanner.h"
#include "interrupts.h"
#include "values.h"

namespace tsread::python {

class PlannedRead {
 public:
  // Plans every file of the scan and its splits: one split per file with one thread, a few per
  // thread and file with more. nullptr when the plan cannot size the read (see above). Errors
  // are the scan's (they name the file). No GIL needed.
  static absl::StatusOr<std::unique_ptr<PlannedRead>> Plan(const DatasetScanner& scanner, ConvertOptions options,
                                                           int threads);
  PlannedRead(const PlannedRead&) = delete;
  PlannedRead& operator=(const PlannedRead&) = delete;
  ~PlannedRead();

  // Reads every split on `threads` threads (the calling one included) and closes the gaps a
  // time range left. false when a split held more rows than planned (nothing usable was
  // gathered: read with the Collector). No GIL needed.
  absl::StatusOr<bool> Run();

  // The columns as Collector::Finish makes them. Needs the GIL; once.
  pybind11::list Finish();

 private:
  struct File;
  struct Piece;
  struct Column;

  PlannedRead(const DatasetScanner& scanner, ConvertOptions options, int threads);

  // Reads piece `p` into its slices through the thread's `cursor` (kept for all its pieces).
  absl::Status ReadPiece(Piece& piece, std::optional<TableScanner::Cursor>& cursor);
  absl::Status AppendBatch(Piece& piece, const TableBatch& batch);
  // Populates every column's slice of the piece ahead of rows [.., `rows`).
  void PopulatePiece(Piece& piece, size_t rows);
  // The scanner of the piece's file, planned again when it was let go after planning.
  absl::StatusOr<const TableScanner*> AcquireFile(File& file);
  void ReleaseFile(File& file);
  // After the scan: the TAG categories in scan order and each piece's local -> global codes.
  void Seal();
  // Closes the gaps between slices left short (a time range); sets rows_.
  void Compact();
  // Runs fn(i, thread) for i in [0, n) on the threads (thread in [0, threads_), 0 = the calling
  // one); stops handing out work once one fails; the failure of the lowest i is returned.
  absl::Status ParallelFor(size_t n, const std::function<absl::Status(size_t, int)>& fn);

  const DatasetScanner* scanner_;
  ConvertOptions options_;
  InterruptCheck interrupts_;  // made by the thread that calls Plan: Ctrl-C stops the read
  int threads_;
  std::vector<std::unique_ptr<File>> files_;
  std::vector<std::unique_ptr<Piece>> pieces_;
  std::vector<std::unique_ptr<Column>> columns_;
  Buffer times_;
  size_t planned_rows_ = 0;
  size_t rows_ = 0;  // after Compact
  std::atomic<bool> overflowed_{false};
};

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_PLANNED_READ_H_
