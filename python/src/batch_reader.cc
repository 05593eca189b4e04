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

BatchReader::BatchReader(std::shared_ptr<Dataset> dataset, const ScanArgs& args, const ConvertOptions& options)
    : dataset_(std::move(dataset)), scanner_(MakeScanner(*dataset_, args)), cursor_(scanner_->OpenCursor()),
      limit_(std::max<size_t>(args.batch_rows, 1)), collector_(scanner_->projection(), options) {}

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
    absl::StatusOr<TableBatch*> batch = cursor_.Next();
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
