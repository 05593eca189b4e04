// The Dask splits (splits.h): planning them from the scanner, reading one into a Collector.
#include "splits.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "columns.h"
#include "errors.h"
#include "read_table.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/dataset_scanner.h"
#include "values.h"

namespace py = pybind11;

namespace tsread::python {
namespace {

// A rows hint beyond this many rows per byte of the file is not believed (the densest real
// encodings hold a few dozen): the columns then grow as rows come instead.
constexpr uint64_t kMaxHintedRowsPerFileByte = 64;

}  // namespace

py::dict PlanSplits(const PyDataset& ds, const ScanArgs& args, uint64_t split_bytes) {
  const Dataset& dataset = *ds.dataset();
  std::unique_ptr<DatasetScanner> scanner = MakeScanner(dataset, args);
  absl::StatusOr<std::vector<DatasetSplit>> splits;
  {
    py::gil_scoped_release nogil;
    splits = scanner->Splits(split_bytes);
  }
  Check(splits.status(), &dataset);
  py::list columns;
  for (const ProjectedColumn& c : scanner->projection()) {
    columns.append(py::make_tuple(c.name, std::string(ColumnCategoryName(c.category)), std::string(DataTypeName(c.data_type))));
  }
  py::list parts;
  for (const DatasetSplit& split : *splits) {
    // What the metadata announces for the split's devices: rows (ignoring the time range) and,
    // with rows, the time range they span.
    const ScanSplit& devices = split.devices;
    py::object min_time = devices.rows > 0 ? py::cast(devices.min_time) : py::none();
    py::object max_time = devices.rows > 0 ? py::cast(devices.max_time) : py::none();
    parts.append(py::make_tuple(py::bytes(scanner->SerializeSplit(split)), dataset.files()[split.file].path,
                                devices.rows, min_time, max_time, devices.bytes));
  }
  py::dict out;
  out["columns"] = columns;
  out["splits"] = parts;
  return out;
}

py::list ReadSplits(const std::vector<std::string>& serialized, const ConvertOptions& options, uint64_t rows_hint,
                    const std::optional<std::vector<std::string>>& columns) {
  if (serialized.empty()) throw py::value_error("read_split: no split given");
  std::vector<std::unique_ptr<SplitReader>> readers;
  absl::Status status;
  std::optional<Collector> collector;
  {
    py::gil_scoped_release nogil;
    for (const std::string& bytes : serialized) {
      absl::StatusOr<std::unique_ptr<SplitReader>> reader = SplitReader::Open(bytes, 0, {}, columns);
      if (!reader.ok()) {
        status = reader.status();
        break;
      }
      readers.push_back(*std::move(reader));
    }
    if (status.ok()) {
      // The splits of one plan share its projection: one collector gathers them in order.
      collector.emplace(readers[0]->projection(), options);
      uint64_t believed = 0;
      size_t devices = 0;
      for (const auto& reader : readers) {
        const uint64_t file_size = reader->scanner().dataset().files()[0].size;
        believed += file_size > UINT64_MAX / kMaxHintedRowsPerFileByte / serialized.size()
                        ? UINT64_MAX / serialized.size()
                        : file_size * kMaxHintedRowsPerFileByte;
        devices += reader->split().devices.device_count;
      }
      collector->BoundTagCategories(devices);
      if (!collector->Reserve(static_cast<size_t>(std::min({rows_hint, believed, uint64_t{SIZE_MAX}})))) {
        status = OutOfMemory();
      }
    }
    for (size_t r = 0; status.ok() && r < readers.size(); ++r) {
      status = readers[r]->Scan([&](const TableBatch& batch) { return collector->Append(batch); });
      if (!status.ok()) {
        py::gil_scoped_acquire gil;
        Check(status, &readers[r]->scanner().dataset());  // names the file of a corrupt value (.file)
      }
    }
  }
  Check(status);
  return collector->Finish();
}

}  // namespace tsread::python
