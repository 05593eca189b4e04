// TEXT, STRING and BLOB values as Python objects: BLOB as bytes, TEXT/STRING as str. A file may
// hold TEXT/STRING bytes that are not UTF-8; decoding them with surrogateescape (as before) made
// str that fail much later, in to_csv or an encode, far from the file. So the strict decode's
// own check is the validation (no second pass), and what a failure becomes is the read's
// invalid_utf8: a CorruptFileError naming the file, column, row and time; U+FFFD replacements;
// or, with 'bytes', every value of TEXT/STRING columns as bytes, never decoded. Needs the GIL.
#ifndef TSREAD_PYTHON_TEXT_VALUES_H_
#define TSREAD_PYTHON_TEXT_VALUES_H_

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tsread/read/projection.h"
#include "values.h"

namespace tsread::python {

// The files a column's rows came from, as runs of rows (a run starts where the file changes):
// what names the file of a bad value once rows of many files are gathered.
class RowFiles {
 public:
  // Rows from `row` on come from `file` (nullptr: unknown), until the next call.
  void Note(size_t row, const std::string* file);
  // The file of row `row` ("" when unknown).
  std::string_view FileOf(size_t row) const;
  void Clear() { runs_.clear(); }

 private:
  struct Run {
    size_t first_row;
    std::string file;
  };
  std::vector<Run> runs_;
};

// Decodes the values of one binary FIELD column. `times`: the rows' times, as the time column
// holds them (nanoseconds with time_ns), or nullptr when the read has none.
class TextDecoder {
 public:
  TextDecoder(const ProjectedColumn& column, InvalidUtf8 invalid_utf8, const int64_t* times, bool time_ns);

  // The Python kind of the column (columns.h): "bytes" for BLOB and for TEXT/STRING read as bytes.
  const char* kind() const { return as_bytes_ ? "bytes" : "str"; }
  // A value as a new reference; nullptr (a UnicodeDecodeError pending) for bytes that are not
  // UTF-8 under InvalidUtf8::kError: then call RaiseInvalid. Throws error_already_set otherwise.
  PyObject* Decode(std::string_view bytes) const;
  // Raises CorruptFileError naming `file`, the column, the row and its time for the pending
  // UnicodeDecodeError of Decode(bytes) (found in row `row`); a cold path, apart so that the
  // file is looked up only then.
  [[noreturn]] void RaiseInvalid(std::string_view bytes, size_t row, std::string_view file) const;

 private:
  std::string column_;
  const char* type_name_;
  bool as_bytes_;
  const char* errors_;  // the codec's error handler: "strict" or "replace"
  const int64_t* times_;
  bool time_ns_;
};

// "invalid UTF-8 at byte K of b'...'" for the pending UnicodeDecodeError of decoding `bytes`,
// which it clears.
std::string DescribeDecodeError(std::string_view bytes);

// A TAG value as str, bytes (InvalidUtf8::kBytes) or with replacements; a new reference. Raises
// CorruptFileError naming the column (TAG values come from device ids, so no row or time).
PyObject* DecodeTag(std::string_view bytes, std::string_view column, InvalidUtf8 invalid_utf8);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_TEXT_VALUES_H_
