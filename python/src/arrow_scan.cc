// ArrowScan (arrow_scan.h): scans exported as Arrow C streams inside PyCapsules.
#include "arrow_scan.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "errors.h"
#include "read_table.h"
#include "read_tree.h"
#include "tsread/common/utf8.h"
#include "tsread/dataset/tree_points.h"

namespace py = pybind11;

namespace tsread::python {
namespace {

// The capsules' destructors: what the consumer did not move out is released, then the struct.
void DeleteStreamCapsule(PyObject* capsule) {
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, "arrow_array_stream"));
  if (stream == nullptr) return;  // not ours (cannot happen): leave the error for Python
  std::unique_ptr<ArrowArrayStream> owned(stream);
  if (owned->release != nullptr) owned->release(owned.get());
}

void DeleteSchemaCapsule(PyObject* capsule) {
  auto* schema = static_cast<ArrowSchema*>(PyCapsule_GetPointer(capsule, "arrow_schema"));
  if (schema == nullptr) return;
  std::unique_ptr<ArrowSchema> owned(schema);
  if (owned->release != nullptr) owned->release(owned.get());
}

// A capsule owning `value` (released by `destructor`), or the Python error of making one.
template <typename T>
py::capsule CapsuleOf(std::unique_ptr<T> value, const char* name, void (*destructor)(PyObject*)) {
  PyObject* capsule = PyCapsule_New(value.get(), name, destructor);
  if (capsule == nullptr) throw py::error_already_set();
  value.release();  // the capsule's now
  return py::reinterpret_steal<py::capsule>(capsule);
}

// A capsule "arrow_array_stream" holding a new stream `export_stream` fills.
py::capsule StreamCapsule(const std::function<void(ArrowArrayStream*)>& export_stream) {
  auto stream = std::make_unique<ArrowArrayStream>();
  stream->release = nullptr;
  export_stream(stream.get());
  return CapsuleOf(std::move(stream), "arrow_array_stream", DeleteStreamCapsule);
}

// A capsule "arrow_schema" holding the schema of a stream `export_stream` fills.
py::capsule SchemaCapsule(const std::function<void(ArrowArrayStream*)>& export_stream) {
  ArrowArrayStream stream{};
  export_stream(&stream);
  auto schema = std::make_unique<ArrowSchema>();
  schema->release = nullptr;
  const int error = stream.get_schema(&stream, schema.get());
  stream.release(&stream);
  if (error != 0) throw std::runtime_error("tsread: the scan's schema could not be built");
  return CapsuleOf(std::move(schema), "arrow_schema", DeleteSchemaCapsule);
}

}  // namespace

ArrowScan::ArrowScan(std::shared_ptr<const PyDataset> ds, ScanArgs args, ArrowExportOptions options)
    : ds_(std::move(ds)), args_(std::move(args)), options_(std::move(options)) {
  // The same checks a scan makes, once, so that a wrong argument is an error of tsread.scan().
  if (ds_->iotdb() != nullptr) {
    MakeMergedScanner(*ds_, args_);
  } else {
    MakeScanner(*ds_->dataset(), args_);
  }
}

void ArrowScan::Export(ArrowArrayStream* out) const {
  if (ds_->iotdb() != nullptr) {
    std::unique_ptr<MergedScanner> scanner = MakeMergedScanner(*ds_, args_);
    Check(ExportArrowStream(ds_->iotdb(), std::shared_ptr<const MergedScanner>(std::move(scanner)), options_, out),
          ds_->dataset().get());
    return;
  }
  std::unique_ptr<DatasetScanner> scanner = MakeScanner(*ds_->dataset(), args_);
  Check(ExportArrowStream(ds_->dataset(), std::shared_ptr<const DatasetScanner>(std::move(scanner)), options_, out),
        ds_->dataset().get());
}

py::capsule ArrowScan::Stream() const {
  return StreamCapsule([this](ArrowArrayStream* out) { Export(out); });
}

py::capsule ArrowScan::Schema() const {
  return SchemaCapsule([this](ArrowArrayStream* out) { Export(out); });
}

ArrowTreeScan::ArrowTreeScan(std::shared_ptr<const PyDataset> ds, TimeRange range, std::vector<std::string> devices,
                             std::vector<std::string> measurements, size_t batch_rows, ArrowExportOptions options)
    : ds_(std::move(ds)), batch_rows_(batch_rows), options_(std::move(options)) {
  const Dataset& dataset = *ds_->dataset();
  if (!MayHoldTreeModel(dataset)) RaiseNoTreeData(dataset, "scan_tree", "scan");
  scan_.time_range = range;
  if (!devices.empty()) {
    scan_.select_device = [devices = std::move(devices)](std::string_view d) { return TreeDeviceSelected(devices, d); };
  }
  scan_.measurements = std::move(measurements);
}

void ArrowTreeScan::Export(ArrowArrayStream* out) const {
  const Dataset* dataset = ds_->dataset().get();
  std::shared_ptr<const void> owner;
  TreeStepFn step;
  absl::StatusOr<std::vector<TreeSeriesInfo>> series;
  {
    py::gil_scoped_release released;  // the series' metadata is read here
    if (ds_->iotdb() != nullptr) {
      absl::StatusOr<std::vector<iotdb::TreeDeviceFiles>> devices = ds_->iotdb()->TreeDevices(scan_);
      series = devices.ok() ? ds_->iotdb()->TreeSeries(*devices, scan_) : devices.status();
      owner = ds_->iotdb();
      if (devices.ok()) step = ds_->iotdb()->TreeSteps(std::move(*devices), scan_);
    } else {
      series = TreeSeriesOf(*dataset, scan_);
      owner = ds_->dataset();
      step = TreeStepsOf(*dataset, scan_);
    }
  }
  std::vector<DataType> types;
  for (const TreeSeriesInfo& s : Check(std::move(series), dataset)) {
    if (!IsValidUtf8(s.device) || !IsValidUtf8(s.measurement)) {
      RaiseCorrupt(dataset->files().size() == 1 ? dataset->files()[0].path : "the dataset",
                   "a device or measurement name is not UTF-8: " + BytesRepr(s.device + "." + s.measurement));
    }
    types.push_back(s.type);
  }
  Check(ExportTreeArrowStream(std::move(owner), std::move(step), std::move(types), batch_rows_, options_, out), dataset);
}

py::capsule ArrowTreeScan::Stream() const {
  return StreamCapsule([this](ArrowArrayStream* out) { Export(out); });
}

py::capsule ArrowTreeScan::Schema() const {
  return SchemaCapsule([this](ArrowArrayStream* out) { Export(out); });
}

}  // namespace tsread::python
