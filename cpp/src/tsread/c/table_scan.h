// The C ABI's table scans (tsread.h, "Scanning a table"): a source's table as an Arrow C stream,
// and its columns.
#ifndef TSREAD_C_TABLE_SCAN_H_
#define TSREAD_C_TABLE_SCAN_H_

#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/arrow/arrow_stream.h"
#include "tsread/c/source.h"
#include "tsread/format/table_schema.h"

namespace tsread::c_api {

// A tsread_time_unit as the Arrow export's (nullopt: int64); InvalidArgument naming `function` for
// another value.
absl::StatusOr<std::optional<ArrowTimeUnit>> ArrowTimeUnitOf(int time_unit, std::string_view function);

// The columns of `table` (empty: the only one) as a scan of it would see them: reconciled across
// the files, IoTDB data's for its database.
absl::StatusOr<std::vector<ColumnSchema>> ColumnsOf(const tsread_source& source, std::string_view table);

// Fills `out` with a stream over the rows `options` select (NULL: every row of the only table).
absl::Status ScanTable(const tsread_source& source, const tsread_scan_options* options, ArrowArrayStream* out);

}  // namespace tsread::c_api

#endif  // TSREAD_C_TABLE_SCAN_H_
