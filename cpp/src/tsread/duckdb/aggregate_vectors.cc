// Aggregates into DuckDB vectors (aggregate_vectors.h).
#include "tsread/duckdb/aggregate_vectors.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "tsread/common/calendar.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/io/status_macros.h"

namespace tsread::duckdb_ext {

absl::Status WriteText(duckdb_vector vector, size_t row, std::string_view text, const ValueContext& where) {
  if (!ValidUtf8(text)) {
    return absl::DataLossError(absl::StrCat(ToAbsl(where.function), ": device \"", ToAbsl(where.device), "\", column \"",
                                            ToAbsl(where.column), "\": a value is not valid UTF-8"));
  }
  SetString(vector, row, text);
  return absl::OkStatus();
}

absl::Status WriteTime(duckdb_vector vector, size_t row, int64_t t, const TimeMapping& time, const ValueContext& where) {
  std::optional<int64_t> out = ToOutputTime(t, time);
  if (!out) {
    return absl::OutOfRangeError(absl::StrCat(ToAbsl(where.function), ": device \"", ToAbsl(where.device), "\", ", ToAbsl(where.column),
                                              ": time ", t, " is out of range of TIMESTAMP ", kTimeRangeAdvice));
  }
  static_cast<int64_t*>(duckdb_vector_get_data(vector))[row] = *out;
  return absl::OkStatus();
}

absl::Status WriteValue(duckdb_vector vector, size_t row, DataType type, const AggregateValue& v,
                        const TimeMapping& time, const ValueContext& where) {
  void* data = duckdb_vector_get_data(vector);
  switch (type) {
    case DataType::kBoolean: static_cast<bool*>(data)[row] = v.i != 0; break;
    case DataType::kInt32: static_cast<int32_t*>(data)[row] = static_cast<int32_t>(v.i); break;
    case DataType::kInt64: static_cast<int64_t*>(data)[row] = v.i; break;
    case DataType::kFloat: static_cast<float*>(data)[row] = static_cast<float>(v.d); break;
    case DataType::kDouble: static_cast<double*>(data)[row] = v.d; break;
    case DataType::kTimestamp: return WriteTime(vector, row, v.i, time, where);
    case DataType::kDate: {
      const std::optional<int32_t> days = DaysFromYyyyMmDd(static_cast<int32_t>(v.i));
      if (!days) {
        return absl::DataLossError(absl::StrCat(ToAbsl(where.function), ": device \"", ToAbsl(where.device), "\", column \"",
                                                ToAbsl(where.column), "\": DATE value ", v.i, " names no calendar day"));
      }
      static_cast<int32_t*>(data)[row] = *days;
      break;
    }
    case DataType::kBlob: SetString(vector, row, v.s); break;
    default: return WriteText(vector, row, v.s, where);
  }
  return absl::OkStatus();
}

void WriteSum(duckdb_vector vector, size_t row, const ColumnAggregate& c) {
  void* data = duckdb_vector_get_data(vector);
  if (c.type() == DataType::kFloat || c.type() == DataType::kDouble) {
    static_cast<double*>(data)[row] = c.float_sum();
    return;
  }
  const __int128 sum = c.int_sum();
  duckdb_hugeint h;
  h.lower = static_cast<uint64_t>(sum);
  h.upper = static_cast<int64_t>(sum >> 64);
  static_cast<duckdb_hugeint*>(data)[row] = h;
}

AggregateOptions WithUsedFields(const AggregateOptions& base, const std::vector<ColumnSchema>& fields,
                                const std::vector<bool>& used, std::vector<size_t>& result_column) {
  AggregateOptions options = base;
  result_column.assign(fields.size(), 0);
  for (size_t j = 0; j < fields.size(); ++j) {
    if (!used[j]) continue;
    result_column[j] = options.columns.size();
    options.columns.push_back(fields[j].name);
  }
  options.no_columns = options.columns.empty();
  return options;
}

duckdb_type SumType(DataType type) {
  return type == DataType::kFloat || type == DataType::kDouble ? DUCKDB_TYPE_DOUBLE : DUCKDB_TYPE_HUGEINT;
}

}  // namespace tsread::duckdb_ext
