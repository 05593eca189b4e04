// BatchReader (batch_reader.h): a cursor over the scan, its batches gathered into a Collector.
#include "batch_reader.h"

#include "interrupts.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "absl/status/statusor.h"
#include "errors.h"
#include "read_table.h"

namespace py = pybind11;

namespace tsread::python {

namespace {

// The projection of whichever scanner reads.
std::vector<ProjectedColumn> ProjectionOf(const std::unique_ptr<DatasetScanner>& scanner,
                                          const std::unique_ptr<MergedScanner>& merged) {
  return merged != nullptr ? merged->projection() : scanner->projection();
}

}  // namespace

BatchReader::BatchReader(const PyDataset& ds, const ScanArgs& args, const ConvertOptions& options)
    : dataset_(ds.dataset()),
      iotdb_(ds.iotdb()),
      scanner_(iotdb_ == nullptr ? MakeScanner(*dataset_, args) : nullptr),
      merged_(iotdb_ != nullptr ? MakeMergedScanner(ds, args) : nullptr),
      limit_(std::max<size_t>(args.batch_rows, 1)),
      collector_(ProjectionOf(scanner_, merged_), options) {
  if (merged_ != nullptr) {
    merged_cursor_.emplace(Check(merged_->OpenCursor(), dataset_.get()));
  } else {
    cursor_.emplace(scanner_->OpenCursor());
  }
}

absl::StatusOr<TableBatch*> BatchReader::NextBatch() {
  return merged_cursor_.has_value() ? merged_cursor_->Next() : cursor_->Next();
}

py::object BatchReader::Next() {
  if (busy_.exchange(true)) throw std::runtime_error("tsread: a batch iterator was used from two threads at once");
  struct Done {
    std::atomic<bool>& busy;
    ~Done() { busy = false; }
  } done{busy_};
  absl::Status status;
  {
    InterruptCheck interrupts;
    py::gil_scoped_release nogil;
    status = Fill(interrupts);
  }
  Check(status, dataset_.get());
  if (collector_.rows() == 0) return py::none();
  return collector_.Finish();
}

absl::Status BatchReader::Fill(InterruptCheck& interrupts) {
  while (!done_) {
    if (absl::Status s = interrupts.Poll(); !s.ok()) return s;
    if (pending_) {
      if (collector_.rows() > 0 && collector_.rows() + pending_->num_rows() > limit_) return absl::OkStatus();
      const TableBatch* batch = std::exchange(pending_, nullptr);
      if (absl::Status s = collector_.Append(*batch); !s.ok()) return s;
      continue;
    }
    absl::StatusOr<TableBatch*> batch = NextBatch();
    if (!batch.ok()) return batch.status();
    if (*batch == nullptr) {
      done_ = true;
    } else {
      pending_ = *batch;
    }
  }
  return absl::OkStatus();
}

}  // namespace tsread::python
