// NullableColumns: which FIELD columns of a table may hold nulls, from metadata alone. It fixes
// the pandas dtype of integer, boolean, TIMESTAMP (time_as='int') and DATE (date_as='int')
// columns under nullable='auto' (python/tsread/_frame.py): pandas' nullable dtype when nulls may
// occur, numpy's otherwise. Deciding from the rows read instead made a whole file Int64 and a time
// window of it int64, and a Dask partition differ from its meta.
//
// A column may hold nulls when a device of the table that has rows lacks it (its file's table
// has no such column, or the device no series of it) or when its series' statistics count fewer
// values than the device's time column counts rows (all-null rows included). Every device of
// every file counts, whatever a read's time range or tag filters select.
#ifndef TSREAD_PYTHON_NULLABLE_COLUMNS_H_
#define TSREAD_PYTHON_NULLABLE_COLUMNS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/dataset/dataset.h"

namespace tsread::python {

// The FIELD columns of `table` (reconciled across the dataset, in schema order) that may hold
// nulls. Reads each file's device and series metadata (no data), stopping once every FIELD
// column is known to. Errors name the file. No GIL needed.
absl::StatusOr<std::vector<std::string>> NullableColumns(const Dataset& dataset, const std::string& table);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_NULLABLE_COLUMNS_H_
