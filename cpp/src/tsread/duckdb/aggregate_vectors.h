// Writing aggregates (tsread/aggregate/column_aggregate.h) into DuckDB vectors, for tsfile_last
// and tsfile_aggregate: values in the column's SQL type (table_parameters.h FieldType), times as
// the time mapping says, sums as DuckDB's sum() gives them (HUGEINT for integers, DOUBLE for
// floats). Errors name `function`, the group's device and the column.
#ifndef TSREAD_DUCKDB_AGGREGATE_VECTORS_H_
#define TSREAD_DUCKDB_AGGREGATE_VECTORS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "tsread/aggregate/column_aggregate.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/duckdb/duckdb_api.h"
#include "tsread/duckdb/time_parameters.h"

namespace tsread::duckdb_ext {

// Where a value comes from, for error messages.
struct ValueContext {
  std::string_view function;
  std::string_view device;
  std::string_view column;
};

// TEXT/STRING (DataLoss when not UTF-8) into a VARCHAR vector.
absl::Status WriteText(duckdb_vector vector, size_t row, std::string_view text, const ValueContext& where);
// A stored time as the mapping's output type (OutOfRange when no timestamp holds it).
absl::Status WriteTime(duckdb_vector vector, size_t row, int64_t t, const TimeMapping& time, const ValueContext& where);
// A value of `type` in its SQL type.
absl::Status WriteValue(duckdb_vector vector, size_t row, DataType type, const AggregateValue& v,
                        const TimeMapping& time, const ValueContext& where);
// The sum of `c` (which has one: ColumnAggregate::has_sum) as HUGEINT or DOUBLE.
void WriteSum(duckdb_vector vector, size_t row, const ColumnAggregate& c);
// The SQL type of `c`'s sum.
duckdb_type SumType(DataType type);

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_AGGREGATE_VECTORS_H_
