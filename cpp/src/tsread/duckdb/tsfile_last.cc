// tsfile_last (tsfile_last.h): bind (the output columns from the reconciled schema), init (the
// aggregates, computed once), scan (a vector of devices at a time).
#include "tsread/duckdb/tsfile_last.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/common/calendar.h"
#include "tsread/common/utf8.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/table_parameters.h"
#include "tsread/duckdb/time_parameters.h"

namespace tsread::duckdb_ext {
namespace {

constexpr const char* kFunction = "tsfile_last";

struct LastBind {
  std::unique_ptr<Dataset> dataset;
  TimeMapping time;
  AggregateOptions options;
};

struct LastState {
  TableAggregate result;
  size_t next = 0;
};

absl::Status Bind(duckdb_bind_info info) {
  auto bind = std::make_unique<LastBind>();
  absl::StatusOr<TimeMapping> time = NamedTimeMapping(info, kFunction);
  if (!time.ok()) return time.status();
  bind->time = *time;
  if (absl::Status s = ParseTags(info, kFunction, bind->options.tag_predicates); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = OpenDatasetParameter(info, kFunction);
  if (!dataset.ok()) return dataset.status();
  bind->dataset = std::move(*dataset);
  absl::StatusOr<std::string> table = ChooseTable(*bind->dataset, NamedString(info, "table_name"), kFunction);
  if (!table.ok()) return table.status();
  bind->options.table = *table;
  // The columns Aggregate gives: the TAG columns, then every FIELD column, in schema order.
  absl::StatusOr<TableSchema> schema = bind->dataset->ReconciledSchema(*table);
  if (!schema.ok()) return schema.status();
  for (const ColumnSchema& c : schema->columns) {
    if (c.category == ColumnCategory::kTag) AddResultColumn(info, c.name.c_str(), DUCKDB_TYPE_VARCHAR);
  }
  AddResultColumn(info, "time", TimestampType(bind->time));
  for (const ColumnSchema& c : schema->columns) {
    if (c.category == ColumnCategory::kField) AddResultColumn(info, c.name.c_str(), FieldType(c.data_type, bind->time, false));
  }
  duckdb_bind_set_bind_data(info, bind.release(), DeleteAs<LastBind>);
  return absl::OkStatus();
}

absl::Status Init(duckdb_init_info info) {
  const auto* bind = static_cast<const LastBind*>(duckdb_init_get_bind_data(info));
  auto state = std::make_unique<LastState>();
  absl::StatusOr<TableAggregate> result = Aggregate(*bind->dataset, bind->options);
  if (!result.ok()) return result.status();
  state->result = std::move(*result);
  duckdb_init_set_init_data(info, state.release(), DeleteAs<LastState>);
  return absl::OkStatus();
}

absl::Status WriteText(duckdb_vector vector, size_t row, std::string_view text, const std::string& column,
                       const std::string& device) {
  if (!ValidUtf8(text)) {
    return absl::DataLossError(absl::StrCat(kFunction, ": device \"", device, "\", column \"", column,
                                            "\": a value is not valid UTF-8"));
  }
  SetString(vector, row, text);
  return absl::OkStatus();
}

absl::Status WriteTime(duckdb_vector vector, size_t row, int64_t t, const TimeMapping& time, const std::string& what) {
  std::optional<int64_t> out = ToOutputTime(t, time);
  if (!out) {
    return absl::OutOfRangeError(
        absl::StrCat(kFunction, ": ", what, ": time ", t, " is out of range of TIMESTAMP ", kTimeRangeAdvice));
  }
  static_cast<int64_t*>(duckdb_vector_get_data(vector))[row] = *out;
  return absl::OkStatus();
}

// The latest value of `c` into row `row` of `vector` (NULL when the device has none).
absl::Status WriteLast(duckdb_vector vector, size_t row, const ColumnAggregate& c, const ColumnSchema& column,
                       const GroupAggregate& g, const TimeMapping& time) {
  if (c.count() == 0) {
    SetNull(vector, row);
    return absl::OkStatus();
  }
  const AggregateValue& v = c.last();
  void* data = duckdb_vector_get_data(vector);
  switch (column.data_type) {
    case DataType::kBoolean: static_cast<bool*>(data)[row] = v.i != 0; break;
    case DataType::kInt32: static_cast<int32_t*>(data)[row] = static_cast<int32_t>(v.i); break;
    case DataType::kInt64: static_cast<int64_t*>(data)[row] = v.i; break;
    case DataType::kFloat: static_cast<float*>(data)[row] = static_cast<float>(v.d); break;
    case DataType::kDouble: static_cast<double*>(data)[row] = v.d; break;
    case DataType::kTimestamp: return WriteTime(vector, row, v.i, time, absl::StrCat("column \"", column.name, "\""));
    case DataType::kDate: {
      const std::optional<int32_t> days = DaysFromYyyyMmDd(static_cast<int32_t>(v.i));
      if (!days) {
        return absl::DataLossError(absl::StrCat(kFunction, ": device \"", g.device, "\", column \"", column.name,
                                                "\": DATE value ", v.i, " names no calendar day"));
      }
      static_cast<int32_t*>(data)[row] = *days;
      break;
    }
    case DataType::kBlob: SetString(vector, row, v.s); break;
    default: return WriteText(vector, row, v.s, column.name, g.device);
  }
  return absl::OkStatus();
}

absl::Status Scan(duckdb_function_info info, duckdb_data_chunk output) {
  const auto* bind = static_cast<const LastBind*>(duckdb_function_get_bind_data(info));
  auto* state = static_cast<LastState*>(duckdb_function_get_init_data(info));
  const TableAggregate& r = state->result;
  const size_t n = std::min<size_t>(duckdb_vector_size(), r.groups.size() - state->next);
  const size_t tags = r.tag_columns.size();
  for (size_t k = 0; k < n; ++k) {
    const GroupAggregate& g = r.groups[state->next + k];
    for (size_t t = 0; t < tags; ++t) {
      duckdb_vector v = duckdb_data_chunk_get_vector(output, t);
      if (!g.tags[t]) {
        SetNull(v, k);
      } else if (absl::Status s = WriteText(v, k, *g.tags[t], r.tag_columns[t], g.device); !s.ok()) {
        return s;
      }
    }
    if (absl::Status s = WriteTime(duckdb_data_chunk_get_vector(output, tags), k, g.last_time, bind->time, g.device);
        !s.ok()) {
      return s;
    }
    for (size_t j = 0; j < r.columns.size(); ++j) {
      duckdb_vector v = duckdb_data_chunk_get_vector(output, tags + 1 + j);
      if (absl::Status s = WriteLast(v, k, g.columns[j], r.columns[j], g, bind->time); !s.ok()) return s;
    }
  }
  state->next += n;
  duckdb_data_chunk_set_size(output, n);
  return absl::OkStatus();
}

}  // namespace

bool RegisterTsfileLast(duckdb_connection connection) {
  duckdb_table_function function = NewDatasetTableFunction(kFunction);
  AddNamedParameter(function, "table_name", DUCKDB_TYPE_VARCHAR);
  AddNamedParameter(function, "tags", DUCKDB_TYPE_ANY);
  return RegisterTableFunction(connection, function, BindCallback<Bind>, InitCallback<Init>, ScanCallback<Scan>);
}

}  // namespace tsread::duckdb_ext
