// TextDecoder, RowFiles and DecodeTag (text_values.h).
#include "text_values.h"

#include <algorithm>
#include <string>

#include "errors.h"

namespace py = pybind11;

namespace tsread::python {
namespace {

constexpr int64_t kNanosPerMilli = 1'000'000;
// The most bytes of a bad value the error shows.
constexpr size_t kShownBytes = 48;

}  // namespace

std::string DescribeDecodeError(std::string_view bytes) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  py::object error = py::reinterpret_steal<py::object>(value);
  Py_XDECREF(type);
  Py_XDECREF(traceback);
  Py_ssize_t start = 0;
  if (!error || PyUnicodeDecodeError_GetStart(error.ptr(), &start) != 0) {
    PyErr_Clear();
    start = 0;
  }
  const std::string_view shown = bytes.substr(0, kShownBytes);
  std::string text = "invalid UTF-8 at byte " + std::to_string(start) + " of " +
                     BytesRepr(shown);
  if (shown.size() < bytes.size()) text += " (first " + std::to_string(kShownBytes) + " bytes)";
  return text;
}

void RowFiles::Note(size_t row, const std::string* file) {
  const std::string_view name = file == nullptr ? std::string_view() : std::string_view(*file);
  if (!runs_.empty() && runs_.back().file == name) return;
  if (!runs_.empty() && runs_.back().first_row == row) {
    runs_.back().file = std::string(name);  // the run before had no rows
    return;
  }
  runs_.push_back({row, std::string(name)});
}

std::string_view RowFiles::FileOf(size_t row) const {
  auto after = std::upper_bound(runs_.begin(), runs_.end(), row,
                                [](size_t r, const Run& run) { return r < run.first_row; });
  return after == runs_.begin() ? std::string_view() : std::string_view(std::prev(after)->file);
}

TextDecoder::TextDecoder(const ProjectedColumn& column, InvalidUtf8 invalid_utf8, const int64_t* times, bool time_ns)
    : column_(column.name),
      type_name_(column.data_type == DataType::kText ? "TEXT" : "STRING"),
      as_bytes_(column.data_type == DataType::kBlob || invalid_utf8 == InvalidUtf8::kBytes),
      errors_(invalid_utf8 == InvalidUtf8::kReplace ? "replace" : "strict"),
      times_(times),
      time_ns_(time_ns) {}

PyObject* TextDecoder::Decode(std::string_view bytes) const {
  const auto size = static_cast<Py_ssize_t>(bytes.size());
  PyObject* value = as_bytes_ ? PyBytes_FromStringAndSize(bytes.data(), size)
                              : PyUnicode_DecodeUTF8(bytes.data(), size, errors_);
  if (value == nullptr && !PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) throw py::error_already_set();
  return value;
}

void TextDecoder::RaiseInvalid(std::string_view bytes, size_t row, std::string_view file) const {
  std::string message = "column \"" + column_ + "\": " + DescribeDecodeError(bytes) + " in a " + type_name_ +
                        " value in row " + std::to_string(row) + " of the frame";
  if (times_ != nullptr) {
    message += " (time " + std::to_string(time_ns_ ? times_[row] / kNanosPerMilli : times_[row]) + ")";
  }
  message += ": read it with invalid_utf8='replace' (U+FFFD for bad bytes) or invalid_utf8='bytes'";
  RaiseCorrupt(file, message);
}

PyObject* DecodeTag(std::string_view bytes, std::string_view column, InvalidUtf8 invalid_utf8) {
  const auto size = static_cast<Py_ssize_t>(bytes.size());
  PyObject* value =
      PyUnicode_DecodeUTF8(bytes.data(), size, invalid_utf8 == InvalidUtf8::kReplace ? "replace" : "strict");
  if (value != nullptr) return value;
  if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) throw py::error_already_set();
  if (invalid_utf8 == InvalidUtf8::kBytes) {
    PyErr_Clear();  // only the value that is not UTF-8 stays bytes: the column's others are str
    value = PyBytes_FromStringAndSize(bytes.data(), size);
    if (value == nullptr) throw py::error_already_set();
    return value;
  }
  RaiseCorrupt({}, "TAG column \"" + std::string(column) + "\": " + DescribeDecodeError(bytes) +
                       " in a device id's value: read it with invalid_utf8='replace' or invalid_utf8='bytes'");
}

}  // namespace tsread::python
