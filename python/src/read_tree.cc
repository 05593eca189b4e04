// read_tree (read_tree.h): every tree-model series read point by point, each value a Python object.
#include "read_tree.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "errors.h"
#include "tsread/common/utf8.h"
#include "text_values.h"
#include "tsread/dataset/dataset.h"
#include "tsread/read/column_vector.h"
#include "tsread/dataset/tree_points.h"
#include "tsread/read/tsfile_reader.h"

namespace py = pybind11;

namespace tsread::python {
namespace {

// One value of a series as a Python object of its type (DATE and TIMESTAMP as their stored ints);
// a null object for a TEXT/STRING value that is not UTF-8 under InvalidUtf8::kError (the
// UnicodeDecodeError pending).
py::object ValueAt(const ColumnVector& v, size_t r, InvalidUtf8 invalid_utf8) {
  switch (v.type) {
    case DataType::kBoolean: return py::bool_(v.bools[r] != 0);
    case DataType::kInt32:
    case DataType::kDate: return py::int_(v.int32s[r]);
    case DataType::kInt64:
    case DataType::kTimestamp: return py::int_(v.int64s[r]);
    case DataType::kFloat: return py::float_(v.floats[r]);
    case DataType::kDouble: return py::float_(v.doubles[r]);
    case DataType::kBlob: return py::bytes(std::string(v.binary(r)));
    default: {
      std::string_view s = v.binary(r);
      if (invalid_utf8 == InvalidUtf8::kBytes) return py::bytes(s.data(), s.size());
      PyObject* value = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()),
                                             invalid_utf8 == InvalidUtf8::kReplace ? "replace" : "strict");
      if (value == nullptr && !PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) throw py::error_already_set();
      return py::reinterpret_steal<py::object>(value);
    }
  }
}

[[noreturn]] void RaiseInvalid(const std::string& file, const std::string& device, const std::string& measurement,
                               const ColumnVector& v, size_t r, int64_t time) {
  RaiseCorrupt(file, "device \"" + device + "\", measurement \"" + measurement + "\": " +
                         DescribeDecodeError(v.binary(r)) + " in a " + (v.type == DataType::kText ? "TEXT" : "STRING") +
                         " value at time " + std::to_string(time) +
                         ": read it with invalid_utf8='replace' (U+FFFD for bad bytes) or invalid_utf8='bytes'");
}


// A device or measurement name as str; CorruptFileError naming the file when it is not UTF-8.
py::str Name(const std::string& bytes, const std::string& file, const char* what) {
  if (!IsValidUtf8(bytes)) {
    RaiseCorrupt(file, std::string("a ") + what + " name is not UTF-8: " + BytesRepr(bytes));
  }
  return py::str(bytes);
}

}  // namespace

[[noreturn]] void RaiseNoTreeData(const Dataset& dataset, const std::string& function, const std::string& table_reader) {
  std::string message = function + ": no tree-model data in ";
  message += dataset.files().size() == 1 ? dataset.files()[0].path
                                         : std::to_string(dataset.files().size()) + " files";
  const std::vector<std::string> tables = dataset.TableNames();
  if (!tables.empty()) {
    message += " (table-model tables: ";
    for (size_t t = 0; t < tables.size(); ++t) message += (t > 0 ? ", " : "") + tables[t];
    message += "; read them with " + table_reader + ")";
  }
  throw py::value_error(message);
}

namespace {

// read_tree's result: the point columns by name.
py::dict PointsDict(const py::list& devices, const py::list& measurements, const py::list& times, const py::list& values) {
  py::dict out;
  out["device"] = devices;
  out["measurement"] = measurements;
  out["time"] = times;
  out["value"] = values;
  return out;
}

// Appends a series' non-null points to the four columns; `where` names the file in errors.
class PointColumns {
 public:
  explicit PointColumns(InvalidUtf8 invalid_utf8) : invalid_utf8_(invalid_utf8) {}

  // A TreePointsFn (dataset/tree_points.h) for points read from `where`.
  TreePointsFn Append(const std::string& where) {
    return [this, &where](std::string_view d, std::string_view m, const std::vector<int64_t>& t, const ColumnVector& v,
                          size_t begin, size_t end) {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      const std::string name(d), measurement(m);
      py::str device = Name(name, where, "device");
      py::str series = Name(measurement, where, "measurement");
      for (size_t r = begin; r < end; ++r) {
        if (!v.IsValid(r)) continue;
        py::object value = ValueAt(v, r, invalid_utf8_);
        if (!value) RaiseInvalid(where, name, measurement, v, r, t[r]);
        devices_.append(device);
        measurements_.append(series);
        times_.append(t[r]);
        values_.append(value);
      }
      return absl::OkStatus();
    };
  }
  py::dict Dict() const { return PointsDict(devices_, measurements_, times_, values_); }

 private:
  const InvalidUtf8 invalid_utf8_;
  py::list devices_, measurements_, times_, values_;
};

}  // namespace

// The GIL is held throughout (Python objects are made as the points come): Ctrl-C is seen where
// PointColumns checks signals.
py::dict ReadTree(const PyDataset& ds, const TreeSelection& selection, InvalidUtf8 invalid_utf8) {
  const Dataset& dataset = *ds.dataset();
  TreeScanOptions options;
  options.time_range = selection.range;
  if (selection.devices) {
    options.select_device = [&](std::string_view d) { return selection.devices->count(std::string(d)) > 0; };
  }
  if (selection.measurements) options.measurements.assign(selection.measurements->begin(), selection.measurements->end());
  PointColumns columns(invalid_utf8);
  if (ds.iotdb() != nullptr) {  // each series merged (IotdbDataset::ScanTree)
    const std::string where = dataset.files().size() == 1 ? dataset.files()[0].path : "the IoTDB data";
    Check(ds.iotdb()->ScanTree(options, columns.Append(where)), &dataset);
    return columns.Dict();
  }
  if (!MayHoldTreeModel(dataset)) RaiseNoTreeData(dataset, "read_tree", "read_table");
  // File after file, each file's points by device, measurement and time (dataset/tree_points.h).
  for (size_t i = 0; i < dataset.files().size(); ++i) {
    const DatasetFile& file = dataset.files()[i];
    if (file.status.ok() && !file.has_tree_model) continue;
    std::shared_ptr<const TsFileReader> reader = Check(dataset.OpenFile(i), &dataset);
    Check(WithFileName(ScanTreePointsOfFile(*reader, options, columns.Append(file.path)), file.path), &dataset);
  }
  return columns.Dict();
}

}  // namespace tsread::python
