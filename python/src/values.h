// How tsread's values become numpy's: widths, dtypes and the Python kinds of the data types, and
// the copies from a batch's buffers into a column's memory (times to datetime64[ns], null floats
// to NaN, DATEs checked and made days, null masks), shared by the Collector and the PlannedRead.
// No GIL needed except where said.
#ifndef TSREAD_PYTHON_VALUES_H_
#define TSREAD_PYTHON_VALUES_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/read/column_vector.h"
#include "tsread/read/projection.h"

namespace tsread::python {

// What DATE values become in Python (read_table's date_as): the stored ints, or days since
// 1970-01-01 that _frame.py views as datetime64 or turns into datetime.date.
enum class DateAs { kInt, kDate, kDatetime64 };
// What a TEXT/STRING value that is not UTF-8 becomes (read_table's invalid_utf8): an error
// (CorruptFileError), a str with U+FFFD for each bad sequence, or every value of such columns
// bytes (never decoded, so never failing).
enum class InvalidUtf8 { kError, kReplace, kBytes };

// What C++ decides about value representation (the rest is python/tsread/_frame.py's).
struct ConvertOptions {
  // FLOAT/DOUBLE nulls as NaN in the values (pandas' float dtypes); false = a separate mask.
  bool float_nan = true;
  // The time column and TIMESTAMP fields as datetime64[ns] values (ms x 10^6, NaT for null)
  // instead of int64 milliseconds.
  bool time_ns = false;
  // Whether the rows' times are kept as a column at all (a Dask partition projected to value
  // columns has no use for them).
  bool with_time = true;
  // DATE: checked to be calendar days within what date_as makes of them, and made days since
  // 1970-01-01 in place, unless kInt (the stored yyyyMMdd ints, never checked).
  DateAs date_as = DateAs::kInt;
  // A DATE value that names no calendar day (20230231, 20231301, 0) reads as null instead of
  // failing the read (invalid_dates='null'). A valid date out of date_as's range always fails.
  bool invalid_dates_null = false;
  InvalidUtf8 invalid_utf8 = InvalidUtf8::kError;
};

// The options from the binding's arguments (the spellings of python/tsread/__init__.py);
// InvalidArgument for a spelling it does not know.
absl::StatusOr<ConvertOptions> MakeConvertOptions(bool float_nan, bool time_ns, std::string_view date_as,
                                                  std::string_view invalid_dates, std::string_view invalid_utf8);

// Where a batch's values come from, for the errors about them: the file (empty when unknown),
// the column and the rows' times (ms).
struct ValueSite {
  std::string_view file;
  std::string_view column;
  const int64_t* times = nullptr;
};
// Called with each row whose DATE is no calendar day under invalid_dates_null: the caller sets it
// null in its mask.
using MarkNull = absl::FunctionRef<void(size_t row)>;

// The stored width of a FIELD value of `type` (BOOLEAN: one byte), 0 for binary types.
size_t WidthOf(DataType type);
// Bytes per row of a projected column's values buffer as the readers fill it: `tag_code_width`
// for a TAG column (tag_codes.h), WidthOf for a fixed-width FIELD column, 0 for binary FIELD and
// ATTRIBUTE columns.
size_t ValuesWidthOf(const ProjectedColumn& column, size_t tag_code_width);
// Whether a FIELD column's null mask goes to Python (not for NaN floats, NaT times or objects).
bool KeepsMask(const ProjectedColumn& column, const ConvertOptions& options);
// The numpy dtype of a fixed-width FIELD type's values. Needs the GIL.
pybind11::dtype DtypeOf(DataType type);
// The kind of Python column a data type becomes (python/tsread/_frame.py maps kinds to dtypes).
const char* KindOf(DataType type);

// Copies `rows` times (ms) to `to`, as nanoseconds with time_ns; OutOfRange for a time outside
// datetime64[ns]'s years 1677-2262, naming the file and the time and saying time_as='int' reads it.
absl::Status CopyTimes(const int64_t* from, size_t rows, bool time_ns, std::string_view file, int64_t* to);
// Copies a fixed-width FIELD column's values to `to` (WidthOf(type) bytes each), converted as
// `options` says (null floats NaN, TIMESTAMPs nanoseconds with NaT for null, DATEs as
// date_values.h says). Errors name `site`'s file, column and the row's time: OutOfRange for a
// TIMESTAMP or DATE that the chosen representation cannot hold, DataLoss for a DATE that is no
// calendar day (without invalid_dates_null; with it, mark_null(row)).
absl::Status CopyFieldValues(const ColumnVector& values, const ConvertOptions& options, const ValueSite& site,
                             MarkNull mark_null, char* to);
// One byte per row, 1 = null.
void CopyNullMask(const ColumnVector& values, char* to);

absl::Status OutOfMemory();

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_VALUES_H_
