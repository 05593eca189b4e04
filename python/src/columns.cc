#include "columns.h"

#include <pybind11/numpy.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>

namespace py = pybind11;

namespace tsread::python {
namespace {

// Frees a vector's memory at once (clear() keeps the capacity), so that gathering a column into
// its numpy array never holds the column twice.
template <typename T>
void Release(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// The value array of `column` that holds type T.
template <typename T>
std::vector<T>& ValuesOf(ColumnVector& column);
template <>
std::vector<uint8_t>& ValuesOf(ColumnVector& c) { return c.bools; }
template <>
std::vector<int32_t>& ValuesOf(ColumnVector& c) { return c.int32s; }
template <>
std::vector<int64_t>& ValuesOf(ColumnVector& c) { return c.int64s; }
template <>
std::vector<float>& ValuesOf(ColumnVector& c) { return c.floats; }
template <>
std::vector<double>& ValuesOf(ColumnVector& c) { return c.doubles; }

size_t NullCount(const std::vector<Piece>& pieces, size_t j) {
  size_t nulls = 0;
  for (const Piece& p : pieces) nulls += p.columns[j].null_count;
  return nulls;
}

// A boolean numpy array, true where column j is null (pandas' masked-array convention).
py::array_t<bool> NullMask(const std::vector<Piece>& pieces, size_t j, size_t rows) {
  py::array_t<bool> mask(static_cast<py::ssize_t>(rows));
  bool* out = mask.mutable_data();
  py::gil_scoped_release nogil;
  for (const Piece& p : pieces) {
    const ColumnVector& c = p.columns[j];
    for (size_t r = 0; r < c.length; ++r) *out++ = !c.IsValid(r);
  }
  return mask;
}

// Column j's values of type T into one numpy array (Out is the numpy element type of the same
// width), each piece's buffer freed once copied. With `nan_for_null`, null slots become NaN.
template <typename T, typename Out = T>
py::array_t<Out> GatherValues(std::vector<Piece>& pieces, size_t j, size_t rows, bool nan_for_null) {
  static_assert(sizeof(T) == sizeof(Out));
  py::array_t<Out> out(static_cast<py::ssize_t>(rows));
  Out* dst = out.mutable_data();
  py::gil_scoped_release nogil;
  for (Piece& p : pieces) {
    ColumnVector& c = p.columns[j];
    std::vector<T>& values = ValuesOf<T>(c);
    std::memcpy(dst, values.data(), c.length * sizeof(T));
    if constexpr (std::is_floating_point_v<T>) {
      if (nan_for_null && c.null_count > 0) {
        for (size_t r = 0; r < c.length; ++r) {
          if (!c.IsValid(r)) dst[r] = std::numeric_limits<T>::quiet_NaN();
        }
      }
    }
    dst += c.length;
    Release(values);
  }
  return out;
}

py::array_t<int64_t> GatherTimes(std::vector<Piece>& pieces, size_t rows) {
  py::array_t<int64_t> out(static_cast<py::ssize_t>(rows));
  int64_t* dst = out.mutable_data();
  py::gil_scoped_release nogil;
  for (Piece& p : pieces) {
    std::memcpy(dst, p.times.data(), p.times.size() * sizeof(int64_t));
    dst += p.times.size();
    Release(p.times);
  }
  return out;
}

// TEXT/STRING as str (undecodable bytes kept through surrogateescape), BLOB as bytes; None for null.
py::array GatherObjects(std::vector<Piece>& pieces, size_t j, size_t rows, bool as_bytes) {
  py::array out = py::module_::import("numpy").attr("empty")(rows, py::arg("dtype") = "object");
  PyObject** slots = static_cast<PyObject**>(out.mutable_data());
  for (Piece& p : pieces) {
    ColumnVector& c = p.columns[j];
    for (size_t r = 0; r < c.length; ++r, ++slots) {
      PyObject* value;
      if (!c.IsValid(r)) {
        value = Py_NewRef(Py_None);
      } else {
        std::string_view v = c.binary(r);
        value = as_bytes ? PyBytes_FromStringAndSize(v.data(), static_cast<Py_ssize_t>(v.size()))
                         : PyUnicode_DecodeUTF8(v.data(), static_cast<Py_ssize_t>(v.size()), "surrogateescape");
        if (value == nullptr) throw py::error_already_set();
      }
      PyObject* old = *slots;  // np.empty fills object arrays with None
      *slots = value;
      Py_XDECREF(old);
    }
    Release(c.offsets);
    Release(c.bytes);
  }
  return out;
}

// A TAG column as categorical codes (int32, -1 for null) and its sorted categories.
py::dict GatherTag(const std::vector<Piece>& pieces, size_t j, size_t rows) {
  std::map<std::string, int32_t> codes;
  for (const Piece& p : pieces) {
    if (p.tags[j]) codes.emplace(*p.tags[j], 0);
  }
  py::list categories;
  int32_t next = 0;
  for (auto& [value, code] : codes) {
    code = next++;
    categories.append(py::reinterpret_steal<py::object>(
        PyUnicode_DecodeUTF8(value.data(), static_cast<Py_ssize_t>(value.size()), "surrogateescape")));
  }
  py::array_t<int32_t> out(static_cast<py::ssize_t>(rows));
  int32_t* dst = out.mutable_data();
  {
    py::gil_scoped_release nogil;
    for (const Piece& p : pieces) {
      const int32_t code = p.tags[j] ? codes.at(*p.tags[j]) : -1;
      std::fill(dst, dst + p.rows, code);
      dst += p.rows;
    }
  }
  py::dict column;
  column["values"] = out;
  column["categories"] = categories;
  return column;
}

// The kind of Python column a data type becomes (python/tsread/_frame.py turns kinds into dtypes).
const char* KindOf(DataType type) {
  switch (type) {
    case DataType::kBoolean: return "bool";
    case DataType::kInt32: return "int32";
    case DataType::kInt64: return "int64";
    case DataType::kTimestamp: return "timestamp";
    case DataType::kFloat: return "float32";
    case DataType::kDouble: return "float64";
    case DataType::kDate: return "date";
    case DataType::kBlob: return "bytes";
    default: return "str";
  }
}

py::dict GatherField(std::vector<Piece>& pieces, size_t j, DataType type, size_t rows, const ConvertOptions& options) {
  const size_t nulls = NullCount(pieces, j);
  const bool is_float = type == DataType::kFloat || type == DataType::kDouble;
  py::dict column;
  // Masks first: they read the validity bitmaps, which the value gathering leaves in place.
  if (nulls > 0 && (!is_float || !options.float_nan) && type != DataType::kText && type != DataType::kString &&
      type != DataType::kBlob) {
    column["mask"] = NullMask(pieces, j, rows);
  }
  switch (type) {
    case DataType::kBoolean: column["values"] = GatherValues<uint8_t, bool>(pieces, j, rows, false); break;
    case DataType::kInt32:
    case DataType::kDate: column["values"] = GatherValues<int32_t>(pieces, j, rows, false); break;
    case DataType::kInt64:
    case DataType::kTimestamp: column["values"] = GatherValues<int64_t>(pieces, j, rows, false); break;
    case DataType::kFloat: column["values"] = GatherValues<float>(pieces, j, rows, options.float_nan); break;
    case DataType::kDouble: column["values"] = GatherValues<double>(pieces, j, rows, options.float_nan); break;
    case DataType::kBlob: column["values"] = GatherObjects(pieces, j, rows, true); break;
    default: column["values"] = GatherObjects(pieces, j, rows, false); break;
  }
  return column;
}

}  // namespace

Piece& Collector::NewPiece(const TableBatch& batch) {
  Piece& piece = pieces_.emplace_back();
  piece.tags.resize(projection_.size());
  for (size_t j = 0; j < projection_.size(); ++j) {
    if (projection_[j].category != ColumnCategory::kTag) continue;
    if (std::optional<std::string_view> tag = batch.tag(j)) piece.tags[j] = std::string(*tag);
  }
  piece.rows = batch.num_rows();
  rows_ += piece.rows;
  return piece;
}

void Collector::Take(TableBatch& batch) {
  Piece& piece = NewPiece(batch);
  piece.times = std::move(batch.times);
  piece.columns = std::move(batch.columns);
  batch.times.clear();
  batch.columns.clear();
}

void Collector::Copy(const TableBatch& batch) {
  Piece& piece = NewPiece(batch);
  piece.times = batch.times;
  piece.columns = batch.columns;
}

py::list Collector::Finish(const ConvertOptions& options) {
  py::list out;
  py::dict time;
  time["name"] = "time";
  time["category"] = "TIME";
  time["type"] = "TIMESTAMP";
  time["kind"] = "time";
  time["values"] = GatherTimes(pieces_, rows_);
  out.append(time);
  for (size_t j = 0; j < projection_.size(); ++j) {
    const ProjectedColumn& pc = projection_[j];
    py::dict column;
    if (pc.category == ColumnCategory::kTag) {
      column = GatherTag(pieces_, j, rows_);
      column["kind"] = "tag";
    } else if (pc.category == ColumnCategory::kField) {
      column = GatherField(pieces_, j, pc.data_type, rows_, options);
      column["kind"] = KindOf(pc.data_type);
    } else {
      // ATTRIBUTE columns have no values in table scans: all null.
      column["values"] = py::module_::import("numpy").attr("full")(rows_, py::none(), py::arg("dtype") = "object");
      column["kind"] = "str";
    }
    column["name"] = pc.name;
    column["category"] = std::string(ColumnCategoryName(pc.category));
    column["type"] = std::string(DataTypeName(pc.data_type));
    out.append(column);
  }
  pieces_.clear();
  rows_ = 0;
  return out;
}

}  // namespace tsread::python
