// DATE values for Python. TsFile stores a DATE as the int yyyyMMdd (format reference §11), and
// nothing stops a file from holding ints that name no day (20230231, 20231301, 0): month and day
// arithmetic on them (numpy's, in _frame.py before) rolls them over into other dates (2023-03-03)
// without a word. So, unless date_as is 'int', each value is checked and made days since
// 1970-01-01 in the one pass that copies it (calendar.h's DaysFromYyyyMmDd: the Arrow and DuckDB
// front ends convert with it too), and its day must lie in what the Python representation holds:
// datetime64[ns] midnights from 1677-09-22 to 2262-04-11, datetime.date years 1 to 9999. No GIL.
#ifndef TSREAD_PYTHON_DATE_VALUES_H_
#define TSREAD_PYTHON_DATE_VALUES_H_

#include <cstdint>

#include "absl/status/status.h"
#include "tsread/read/column_vector.h"
#include "values.h"

namespace tsread::python {

// Writes the DATE column's values to `to` (one int32 per row): the stored ints for
// DateAs::kInt, else days since 1970-01-01 (0 in null slots). A value naming no calendar day is
// DataLoss (a corrupt file) naming the site's file, column, the value and its row's time, or,
// with invalid_dates_null, mark_null(row) and 0; a day outside date_as's range is OutOfRange
// naming the options that read it (date_as='date' or 'int').
absl::Status ConvertDates(const ColumnVector& values, const ConvertOptions& options, const ValueSite& site,
                          MarkNull mark_null, int32_t* to);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_DATE_VALUES_H_
