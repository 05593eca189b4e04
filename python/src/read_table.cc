// read_table (read_table.h): the planned read when the metadata can be trusted, else the Collector.
#include "read_table.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "columns.h"
#include "errors.h"
#include "interrupts.h"
#include "planned_read.h"
#include "tsread/io/status_macros.h"
#include "values.h"

namespace py = pybind11;

namespace tsread::python {

std::unique_ptr<DatasetScanner> MakeScanner(const Dataset& dataset, const ScanArgs& args) {
  return Check(DatasetScanner::Create(dataset, args.ToOptions()), &dataset);
}

// Every row of the scan as Python columns, gathered with the GIL released: planned from the
// metadata's row counts and written in place (PlannedRead), or, when the plan cannot be trusted,
// batch by batch in scan order (Collector: a cursor on one thread, an ordered Scan on several).
std::unique_ptr<MergedScanner> MakeMergedScanner(const PyDataset& ds, const ScanArgs& args) {
  return Check(ds.iotdb()->ScanTable(args.ToOptions()), ds.dataset().get());
}

// IoTDB data: the merged rows (one thread), batch by batch.
py::list ReadMergedTable(const PyDataset& ds, const ScanArgs& args, const ConvertOptions& options) {
  std::unique_ptr<MergedScanner> scanner = MakeMergedScanner(ds, args);
  Collector collector(scanner->projection(), options);
  InterruptCheck interrupts;
  absl::Status status;
  {
    py::gil_scoped_release nogil;
    status = scanner->Scan([&](const TableBatch& batch) {
      TSREAD_RETURN_IF_ERROR(interrupts.Poll());
      return collector.Append(batch);
    });
  }
  Check(status, ds.dataset().get());
  return collector.Finish();
}

py::list ReadTable(const PyDataset& ds, const ScanArgs& args, const ConvertOptions& options) {
  if (ds.iotdb() != nullptr) return ReadMergedTable(ds, args, options);
  const Dataset& dataset = *ds.dataset();
  std::unique_ptr<DatasetScanner> scanner = MakeScanner(dataset, args);
  std::unique_ptr<PlannedRead> planned;
  absl::Status status;
  {
    py::gil_scoped_release nogil;
    absl::StatusOr<std::unique_ptr<PlannedRead>> plan = PlannedRead::Plan(*scanner, options, args.threads);
    if (!plan.ok()) {
      status = plan.status();
    } else if (*plan != nullptr) {
      absl::StatusOr<bool> done = (*plan)->Run();
      if (!done.ok()) {
        status = done.status();
      } else if (*done) {
        planned = std::move(*plan);
      }
    }
  }
  Check(status, &dataset);
  if (planned != nullptr) return planned->Finish();

  Collector collector(scanner->projection(), options);
  InterruptCheck interrupts;
  {
    py::gil_scoped_release nogil;
    if (args.threads <= 1) {
      DatasetScanner::Cursor cursor = scanner->OpenCursor();
      while (status.ok()) {
        absl::StatusOr<TableBatch*> batch = cursor.Next();
        if (!batch.ok()) {
          status = batch.status();
        } else if (*batch == nullptr) {
          break;
        } else {
          status = interrupts.Poll();
          if (status.ok()) status = collector.Append(**batch);
        }
      }
    } else {
      status = scanner->Scan([&](int, const TableBatch& batch) {
        TSREAD_RETURN_IF_ERROR(interrupts.Poll());
        return collector.Append(batch);
      });
    }
  }
  Check(status, &dataset);
  return collector.Finish();
}

}  // namespace tsread::python
