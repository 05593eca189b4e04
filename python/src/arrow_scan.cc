// ArrowScan (arrow_scan.h): scans exported as Arrow C streams inside PyCapsules.
#include "arrow_scan.h"

#include <memory>
#include <utility>

#include "errors.h"
#include "read_table.h"

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
  auto stream = std::make_unique<ArrowArrayStream>();
  stream->release = nullptr;
  Export(stream.get());
  return CapsuleOf(std::move(stream), "arrow_array_stream", DeleteStreamCapsule);
}

py::capsule ArrowScan::Schema() const {
  ArrowArrayStream stream{};
  Export(&stream);
  auto schema = std::make_unique<ArrowSchema>();
  schema->release = nullptr;
  const int error = stream.get_schema(&stream, schema.get());
  stream.release(&stream);
  if (error != 0) throw std::runtime_error("tsread: the scan's schema could not be built");
  return CapsuleOf(std::move(schema), "arrow_schema", DeleteSchemaCapsule);
}

}  // namespace tsread::python
