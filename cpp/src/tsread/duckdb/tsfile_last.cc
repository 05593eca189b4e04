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
#include "tsread/duckdb/aggregate_vectors.h"
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

// The latest value of `c` into row `row` of `vector` (NULL when the device has none).
absl::Status WriteLast(duckdb_vector vector, size_t row, const ColumnAggregate& c, const ColumnSchema& column,
                       const GroupAggregate& g, const TimeMapping& time) {
  if (c.count() == 0) {
    SetNull(vector, row);
    return absl::OkStatus();
  }
  return WriteValue(vector, row, column.data_type, c.last(), time, ValueContext{kFunction, g.device, column.name});
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
      } else if (absl::Status s = WriteText(v, k, *g.tags[t], ValueContext{kFunction, g.device, r.tag_columns[t]});
                 !s.ok()) {
        return s;
      }
    }
    if (absl::Status s = WriteTime(duckdb_data_chunk_get_vector(output, tags), k, g.last_time, bind->time,
                                   ValueContext{kFunction, g.device, "time"});
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
