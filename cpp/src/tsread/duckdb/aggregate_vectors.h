// Writing aggregates (tsread/aggregate/column_aggregate.h) into DuckDB vectors, for tsfile_last
// and tsfile_aggregate: values in the column's SQL type (table_parameters.h FieldType), times as
// the time mapping says, sums as DuckDB's sum() gives them (HUGEINT for integers, DOUBLE for
// floats). Errors name `function`, the group's device and the column.
#ifndef TSREAD_DUCKDB_AGGREGATE_VECTORS_H_
#define TSREAD_DUCKDB_AGGREGATE_VECTORS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "tsread/aggregate/column_aggregate.h"
#include "tsread/aggregate/table_aggregate.h"
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

// `base` aggregating only the FIELD columns of `fields` (schema order) marked `used` (none: rows and
// times alone); result_column[j] is then field j's position in the result's columns.
AggregateOptions WithUsedFields(const AggregateOptions& base, const std::vector<ColumnSchema>& fields,
                                const std::vector<bool>& used, std::vector<size_t>& result_column);

// The next vector of `groups` (from `next`, which advances) into `output`, each projected column i
// written by WriteOne(vector, row, state.outputs[i], group, bind, state).
template <typename Bind, typename State, auto WriteOne>
absl::Status WriteGroups(const Bind& bind, const State& state, const std::vector<GroupAggregate>& groups,
                         size_t& next, duckdb_data_chunk output) {
  const size_t n = std::min<size_t>(duckdb_vector_size(), groups.size() - next);
  for (size_t i = 0; i < state.outputs.size(); ++i) {
    duckdb_vector vector = duckdb_data_chunk_get_vector(output, i);
    for (size_t k = 0; k < n; ++k) {
      if (absl::Status s = WriteOne(vector, k, state.outputs[i], groups[next + k], bind, state); !s.ok()) return s;
    }
  }
  next += n;
  duckdb_data_chunk_set_size(output, n);
  return absl::OkStatus();
}

// The scan callback of a function whose init computed `State::result` (a TableAggregate): the next
// vector of its groups (WriteGroups from `State::next`).
template <typename Bind, typename State, auto WriteOne>
absl::Status ScanAggregateGroups(duckdb_function_info info, duckdb_data_chunk output) {
  const auto* bind = static_cast<const Bind*>(duckdb_function_get_bind_data(info));
  auto* state = static_cast<State*>(duckdb_function_get_init_data(info));
  return WriteGroups<Bind, State, WriteOne>(*bind, *state, state->result.groups, state->next, output);
}

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_AGGREGATE_VECTORS_H_
