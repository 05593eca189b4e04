// BatchReader: the Python `BatchReader` behind iter_batches, a scan's rows as batches of at most
// batch_rows rows, one per call of Next.
#ifndef TSREAD_PYTHON_BATCH_READER_H_
#define TSREAD_PYTHON_BATCH_READER_H_

#include <pybind11/pybind11.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "columns.h"
#include "interrupts.h"
#include "scan_args.h"
#include "tsread/dataset/dataset.h"
#include "dataset.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/dataset/merged_scan.h"

namespace tsread::python {

// iter_batches: batches of at most batch_rows rows (the scanner cuts pages to that size; pieces
// are gathered until the next would overflow it).
class BatchReader {
 public:
  BatchReader(const PyDataset& ds, const ScanArgs& args, const ConvertOptions& options);

  // The next batch's columns, or None at the end. The cursor is not thread-safe and the GIL is
  // released while it reads: a second thread calling in meanwhile gets an error, not a race.
  pybind11::object Next();

 private:
  absl::Status Fill(InterruptCheck& interrupts);

  // The next batch of whichever cursor reads.
  absl::StatusOr<TableBatch*> NextBatch();

  std::shared_ptr<Dataset> dataset_;
  std::shared_ptr<const iotdb::IotdbDataset> iotdb_;  // keeps IoTDB data open while it is read
  // Files as written: a dataset scan; IoTDB data: the merged scan.
  std::unique_ptr<DatasetScanner> scanner_;
  std::optional<DatasetScanner::Cursor> cursor_;
  std::unique_ptr<MergedScanner> merged_;
  std::optional<MergedScanner::Cursor> merged_cursor_;
  size_t limit_;
  Collector collector_;
  TableBatch* pending_ = nullptr;  // the cursor's batch, not yet taken
  bool done_ = false;
  std::atomic<bool> busy_{false};
};

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_BATCH_READER_H_
