// How tsread's values become numpy's: widths, dtypes and the Python kinds of the data types, and
// the copies from a batch's buffers into a column's memory (times to datetime64[ns], null floats
// to NaN, null masks), shared by the Collector and the PlannedRead. No GIL needed except where said.
#ifndef TSREAD_PYTHON_VALUES_H_
#define TSREAD_PYTHON_VALUES_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "tsread/read/column_vector.h"
#include "tsread/read/projection.h"

namespace tsread::python {

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
};

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
// datetime64[ns]'s years 1677-2262.
absl::Status CopyTimes(const int64_t* from, size_t rows, bool time_ns, int64_t* to);
// Copies a fixed-width FIELD column's values to `to` (WidthOf(type) bytes each), converted as
// `options` says (null floats NaN, TIMESTAMPs nanoseconds with NaT for null).
absl::Status CopyFieldValues(const ColumnVector& values, const ConvertOptions& options, char* to);
// One byte per row, 1 = null.
void CopyNullMask(const ColumnVector& values, char* to);

absl::Status OutOfMemory();

// A TEXT/STRING value as str (undecodable bytes kept through surrogateescape) or BLOB as bytes;
// a new reference. Needs the GIL; throws error_already_set.
PyObject* DecodeValue(const char* data, size_t size, bool as_bytes);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_VALUES_H_
