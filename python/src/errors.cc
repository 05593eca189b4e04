// Errors: Raise and Check (errors.h), with what they read off a message (the file, the offset)
// and the module's exception classes.
#include "errors.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace py = pybind11;

namespace tsread::python {
namespace {

// Exception classes of the module, created once in PYBIND11_MODULE and looked up by name when
// raised (the module object owns them; no C++ global holds Python state).
py::object ModuleAttr(const char* name) { return py::module_::import("tsread._tsread").attr(name); }

// The byte offset a DataLoss message names ("... at offset 2994: ..."), if any.
std::optional<uint64_t> OffsetIn(std::string_view message) {
  for (size_t at = message.find("offset "); at != std::string_view::npos; at = message.find("offset ", at + 1)) {
    size_t i = at + 7;
    uint64_t value = 0;
    size_t digits = 0;
    for (; i < message.size() && message[i] >= '0' && message[i] <= '9'; ++i, ++digits) value = value * 10 + (message[i] - '0');
    if (digits > 0) return value;
  }
  return std::nullopt;
}

// The dataset file a message is about: errors are prefixed with the file's path (WithFileName).
std::optional<std::string> FileIn(std::string_view message, const Dataset* dataset) {
  if (dataset == nullptr) return std::nullopt;
  std::optional<std::string> best;
  for (const DatasetFile& f : dataset->files()) {
    if (message.starts_with(f.path) && (!best || f.path.size() > best->size())) best = f.path;
  }
  return best;
}

// Text from a message for Python: bytes that are not UTF-8 (a damaged name the message quotes)
// as \xNN escapes, never a UnicodeDecodeError instead of the error being raised.
py::str MessageText(std::string_view message) {
  PyObject* text = PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()), "backslashreplace");
  if (text == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(text);
}

// A path as os.fsdecode gives it (undecodable bytes as surrogates, which os.fsencode restores).
py::str PathText(std::string_view path) {
  PyObject* text = PyUnicode_DecodeFSDefaultAndSize(path.data(), static_cast<Py_ssize_t>(path.size()));
  if (text == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(text);
}

}  // namespace

// Raises the Python exception for a failed status: CorruptFileError (a ValueError) for corrupt or
// truncated input with .file and .offset, UnsupportedFileError for features tsread lacks,
// ValueError for caller mistakes, OSError (FileNotFoundError, PermissionError) for I/O.
[[noreturn]] void Raise(const absl::Status& status, const Dataset* dataset) {
  // An interrupted read (interrupts.h): the signal handler's exception is pending.
  if (status.code() == absl::StatusCode::kCancelled) {
    if (PyErr_Occurred() == nullptr) PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  const std::string message(status.message());
  py::object cls;
  switch (status.code()) {
    case absl::StatusCode::kDataLoss: cls = ModuleAttr("CorruptFileError"); break;
    case absl::StatusCode::kUnimplemented: cls = ModuleAttr("UnsupportedFileError"); break;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange: cls = py::reinterpret_borrow<py::object>(PyExc_ValueError); break;
    case absl::StatusCode::kNotFound: cls = py::reinterpret_borrow<py::object>(PyExc_FileNotFoundError); break;
    case absl::StatusCode::kPermissionDenied: cls = py::reinterpret_borrow<py::object>(PyExc_PermissionError); break;
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kFailedPrecondition: cls = py::reinterpret_borrow<py::object>(PyExc_OSError); break;
    case absl::StatusCode::kResourceExhausted: cls = py::reinterpret_borrow<py::object>(PyExc_MemoryError); break;
    default: cls = py::reinterpret_borrow<py::object>(PyExc_RuntimeError); break;
  }
  py::object error = cls(MessageText(message));
  if (status.code() == absl::StatusCode::kDataLoss || status.code() == absl::StatusCode::kUnimplemented) {
    std::optional<std::string> file = FileIn(message, dataset);
    std::optional<uint64_t> offset = OffsetIn(message);
    error.attr("file") = file ? py::object(PathText(*file)) : py::none();
    error.attr("offset") = offset ? py::cast(*offset) : py::none();
  }
  PyErr_SetObject(cls.ptr(), error.ptr());
  throw py::error_already_set();
}

std::string BytesRepr(std::string_view bytes) { return py::repr(py::bytes(bytes.data(), bytes.size())); }

[[noreturn]] void RaiseCorrupt(std::string_view file, const std::string& message) {
  py::object cls = ModuleAttr("CorruptFileError");
  py::object error = cls(MessageText(file.empty() ? message : std::string(file) + ": " + message));
  error.attr("file") = file.empty() ? py::none() : py::object(PathText(file));
  error.attr("offset") = py::none();
  PyErr_SetObject(cls.ptr(), error.ptr());
  throw py::error_already_set();
}

void Check(const absl::Status& status, const Dataset* dataset) {
  if (!status.ok()) Raise(status, dataset);
}

}  // namespace tsread::python
