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
#include "tsread/aggregate/iotdb_aggregate.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/duckdb/aggregate_vectors.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/table_parameters.h"
#include "tsread/duckdb/time_parameters.h"

namespace tsread::duckdb_ext {
namespace {

constexpr const char* kFunction = "tsfile_last";

struct LastBind {
  DataParameter data;  // the files, or IoTDB data read as IoTDB answers
  TimeMapping time;
  AggregateOptions options;
  size_t tag_count = 0;
  // The FIELD columns, in schema order: field j's latest value is output FieldOutput(j), its time the
  // output after it.
  std::vector<ColumnSchema> fields;

  // Outputs: the device id (0), the TAG columns (1 .. tag_count), `time`, then per field its value
  // and its time.
  idx_t TimeOutput() const { return tag_count + 1; }
  idx_t FieldOutput(size_t j) const { return TimeOutput() + 1 + 2 * j; }
  // The field whose value or time output `id` is; fields.size() for any other output.
  size_t FieldOf(idx_t id) const {
    return id > TimeOutput() && id < FieldOutput(fields.size()) ? (id - TimeOutput() - 1) / 2 : fields.size();
  }
};

struct LastState {
  TableAggregate result;
  // Per projected output (in chunk order): its output column id; per field, its position in
  // result.columns (only the fields the query uses are aggregated).
  std::vector<idx_t> outputs;
  std::vector<size_t> result_column;
  size_t next = 0;
};

absl::Status Bind(duckdb_bind_info info) {
  auto bind = std::make_unique<LastBind>();
  absl::StatusOr<TimeMapping> time = NamedTimeMapping(info, kFunction);
  if (!time.ok()) return time.status();
  bind->time = *time;
  // start_time/end_time: the last values inside a window (as agg's and read_tsfile's).
  absl::StatusOr<TimeRange> range = NamedTimeRange(info, bind->time, kFunction);
  if (!range.ok()) return range.status();
  bind->options.time_range = *range;
  if (absl::Status s = ParseTags(info, kFunction, bind->options.tag_predicates); !s.ok()) return s;
  // filter := the rows that count (AggregateOptions::value_predicates; conditions on TAG values alone
  // name devices, and statistics still answer).
  if (absl::Status s = ParseFilter(info, kFunction, bind->options.value_predicates); !s.ok()) return s;
  absl::StatusOr<DataParameter> data = OpenDataParameter(info, kFunction);
  if (!data.ok()) return data.status();
  bind->data = std::move(*data);
  absl::StatusOr<std::pair<std::string, TableSchema>> table =
      TableOfData(bind->data, NamedString(info, "table_name"), kFunction);
  if (!table.ok()) return table.status();
  bind->options.table = table->first;
  // The columns `tsread last` prints: the device id, the TAG columns, `time`, then per FIELD column
  // (schema order) its latest value and that value's time.
  std::vector<std::string> tags, names = {"time"};
  for (const ColumnSchema& c : table->second.columns) {
    if (c.category == ColumnCategory::kTag) tags.push_back(c.name);
    if (c.category != ColumnCategory::kField) continue;
    bind->fields.push_back(c);
    names.push_back(c.name);
    names.push_back(c.name + "_time");
  }
  names.insert(names.end(), tags.begin(), tags.end());
  AddResultColumn(info, DeviceIdColumnAmong(names).c_str(), DUCKDB_TYPE_VARCHAR);
  for (const std::string& tag : tags) AddResultColumn(info, tag.c_str(), DUCKDB_TYPE_VARCHAR);
  bind->tag_count = tags.size();
  AddResultColumn(info, "time", TimestampType(bind->time));
  for (const ColumnSchema& c : bind->fields) {
    AddResultColumn(info, c.name.c_str(), FieldType(c.data_type, bind->time, false));
    AddResultColumn(info, (c.name + "_time").c_str(), TimestampType(bind->time));
  }
  duckdb_bind_set_bind_data(info, bind.release(), DeleteAs<LastBind>);
  return absl::OkStatus();
}

absl::Status Init(duckdb_init_info info) {
  const auto* bind = static_cast<const LastBind*>(duckdb_init_get_bind_data(info));
  auto state = std::make_unique<LastState>();
  // Only the FIELD columns the query uses are aggregated.
  std::vector<bool> used(bind->fields.size(), false);
  for (idx_t i = 0; i < duckdb_init_get_column_count(info); ++i) {
    const idx_t id = duckdb_init_get_column_index(info, i);
    state->outputs.push_back(id);
    if (const size_t j = bind->FieldOf(id); j < used.size()) used[j] = true;
  }
  const AggregateOptions options = WithUsedFields(bind->options, bind->fields, used, state->result_column);
  absl::StatusOr<TableAggregate> result = bind->data.iotdb != nullptr ? AggregateIotdb(*bind->data.iotdb, options)
                                                                     : Aggregate(*bind->data.dataset, options);
  if (!result.ok()) return result.status();
  state->result = std::move(*result);
  duckdb_init_set_init_data(info, state.release(), DeleteAs<LastState>);
  return absl::OkStatus();
}

// The latest value of `c`, or its time when `time_of_value`, into row `row` of `vector` (NULL when the
// device has none).
absl::Status WriteLast(duckdb_vector vector, size_t row, const ColumnAggregate& c, const ColumnSchema& column,
                       bool time_of_value, const GroupAggregate& g, const TimeMapping& time) {
  if (c.count() == 0) {
    SetNull(vector, row);
    return absl::OkStatus();
  }
  if (time_of_value) return WriteTime(vector, row, c.last_time(), time, ValueContext{kFunction, g.device, column.name});
  return WriteValue(vector, row, column.data_type, c.last(), time, ValueContext{kFunction, g.device, column.name});
}

// Output `id` of group `g` (LastBind's order) into row `row` of `vector`.
absl::Status WriteOutput(duckdb_vector vector, size_t row, idx_t id, const GroupAggregate& g, const LastBind& bind,
                         const LastState& state) {
  const TableAggregate& r = state.result;
  if (id == 0) return WriteText(vector, row, g.device, ValueContext{kFunction, g.device, "device"});
  if (id <= bind.tag_count) {
    if (!g.tags[id - 1]) {
      SetNull(vector, row);
      return absl::OkStatus();
    }
    return WriteText(vector, row, *g.tags[id - 1], ValueContext{kFunction, g.device, r.tag_columns[id - 1]});
  }
  if (id == bind.TimeOutput()) {
    return WriteTime(vector, row, g.last_time, bind.time, ValueContext{kFunction, g.device, "time"});
  }
  const size_t j = bind.FieldOf(id);
  if (j == bind.fields.size()) {  // a virtual column (row id): unused
    SetNull(vector, row);
    return absl::OkStatus();
  }
  const bool time_of_value = id != bind.FieldOutput(j);
  return WriteLast(vector, row, g.columns[state.result_column[j]], bind.fields[j], time_of_value, g, bind.time);
}

}  // namespace

bool RegisterTsfileLast(duckdb_connection connection) {
  duckdb_table_function function = NewDatasetTableFunction(kFunction);
  AddNamedParameter(function, "table_name", DUCKDB_TYPE_VARCHAR);
  AddNamedParameter(function, "tags", DUCKDB_TYPE_ANY);
  AddNamedParameter(function, "filter", DUCKDB_TYPE_VARCHAR);
  AddTimeRangeParameters(function);
  duckdb_table_function_supports_projection_pushdown(function, true);
  return RegisterTableFunction(connection, function, BindCallback<Bind>, InitCallback<Init>,
                               ScanCallback<ScanAggregateGroups<LastBind, LastState, WriteOutput>>);
}

}  // namespace tsread::duckdb_ext
