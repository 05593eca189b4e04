// Errors: absl::Status to Python exceptions. A failed status raises CorruptFileError (a
// ValueError) for corrupt or truncated input with .file and .offset, UnsupportedFileError for
// features tsread lacks, ValueError for caller mistakes, OSError (FileNotFoundError,
// PermissionError) for I/O. Needs the GIL.
#ifndef TSREAD_PYTHON_ERRORS_H_
#define TSREAD_PYTHON_ERRORS_H_

#include <pybind11/pybind11.h>

#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/dataset/dataset.h"

namespace tsread::python {

// Raises the Python exception for a failed status; `dataset` (if any) names the file (.file) of
// a corrupt or unsupported one.
[[noreturn]] void Raise(const absl::Status& status, const Dataset* dataset = nullptr);

// Python's repr of `bytes` as bytes (b'd\xff'): how errors show bytes that are not text. Needs
// the GIL.
std::string BytesRepr(std::string_view bytes);

// Raises CorruptFileError for a corrupt value found while making Python objects (with the GIL,
// after the scan): `message` prefixed by `file` (if known), .file = file or None, .offset None.
[[noreturn]] void RaiseCorrupt(std::string_view file, const std::string& message);

void Check(const absl::Status& status, const Dataset* dataset = nullptr);
template <typename T>
T Check(absl::StatusOr<T> value, const Dataset* dataset = nullptr) {
  if (!value.ok()) Raise(value.status(), dataset);
  return *std::move(value);
}

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_ERRORS_H_
