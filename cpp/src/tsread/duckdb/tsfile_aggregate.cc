// tsfile_aggregate (tsfile_aggregate.h): bind (the output columns from the reconciled schema),
// init (the aggregation of the FIELD columns the query uses, cut into tasks — AggregateTasks —
// for DuckDB's threads), scan (each thread runs tasks; the one that finishes the last merges them
// and writes the groups, a vector at a time; the others end).
#include "tsread/duckdb/tsfile_aggregate.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tsread/aggregate/aggregate_tasks.h"
#include "tsread/aggregate/iotdb_aggregate.h"
#include "tsread/aggregate/time_bucket.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/duckdb/aggregate_vectors.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/table_parameters.h"
#include "tsread/duckdb/time_parameters.h"

namespace tsread::duckdb_ext {
namespace {

constexpr const char* kFunction = "tsfile_aggregate";

// What an output column holds: a TAG value, a group's key or times, or aggregate `what` of FIELD
// column `index` (of AggregateBind::fields).
struct OutputColumn {
  enum Kind { kTag, kBucket, kRows, kFirstTime, kLastTime, kCount, kMin, kMax, kFirst, kLast, kSum, kAvg } kind = kRows;
  size_t index = 0;
};

struct AggregateBind {
  DataParameter data;  // the files, or IoTDB data read as IoTDB answers
  TimeMapping time;
  AggregateOptions options;
  std::vector<ColumnSchema> fields;  // the table's FIELD columns, in schema order
  std::vector<std::string> tags;     // its TAG columns
  std::vector<OutputColumn> outputs;
};

struct AggregateState {
  std::vector<OutputColumn> outputs;     // the projected ones, in chunk order
  std::vector<size_t> result_column;     // per field: its position in result.columns
  // A dataset's aggregation, run by the scanning threads; null for IoTDB data (aggregated at init).
  std::unique_ptr<AggregateTasks> tasks;
  std::atomic<size_t> next_task{0}, tasks_done{0};
  std::atomic<bool> writer_chosen{false};  // IoTDB data: one thread writes the groups
  // The merged groups: written at init (IoTDB data) or by the thread that finished the last task
  // before it writes them; read by that thread alone.
  TableAggregate result;
};

// One DuckDB thread's: its cursor (page buffers kept from task to task) and, for the thread that
// writes the groups, how far it got.
struct ThreadState {
  std::optional<TableScanner::Cursor> cursor;
  bool writes = false;
  size_t next = 0;
};

bool HasMinMax(DataType t) { return ColumnAggregate(t).has_min_max(); }
bool HasSum(DataType t) { return ColumnAggregate(t).has_sum(); }

void AddOutput(duckdb_bind_info info, AggregateBind& bind, const std::string& name, duckdb_type type,
               OutputColumn::Kind kind, size_t index = 0) {
  AddResultColumn(info, name.c_str(), type);
  bind.outputs.push_back(OutputColumn{kind, index});
}

void AddOutputs(duckdb_bind_info info, AggregateBind& bind) {
  // By table there is one group (per bucket): no device, so no TAG columns.
  if (bind.options.by == AggregateGroupBy::kDevice) {
    for (size_t t = 0; t < bind.tags.size(); ++t) AddOutput(info, bind, bind.tags[t], DUCKDB_TYPE_VARCHAR, OutputColumn::kTag, t);
  }
  const duckdb_type time = TimestampType(bind.time);
  AddOutput(info, bind, "bucket", time, OutputColumn::kBucket);
  AddOutput(info, bind, "rows", DUCKDB_TYPE_BIGINT, OutputColumn::kRows);
  AddOutput(info, bind, "first_time", time, OutputColumn::kFirstTime);
  AddOutput(info, bind, "last_time", time, OutputColumn::kLastTime);
  for (size_t j = 0; j < bind.fields.size(); ++j) {
    const ColumnSchema& c = bind.fields[j];
    const duckdb_type value = FieldType(c.data_type, bind.time, false);
    AddOutput(info, bind, c.name + "_count", DUCKDB_TYPE_BIGINT, OutputColumn::kCount, j);
    if (HasMinMax(c.data_type)) {
      AddOutput(info, bind, c.name + "_min", value, OutputColumn::kMin, j);
      AddOutput(info, bind, c.name + "_max", value, OutputColumn::kMax, j);
    }
    AddOutput(info, bind, c.name + "_first", value, OutputColumn::kFirst, j);
    AddOutput(info, bind, c.name + "_last", value, OutputColumn::kLast, j);
    if (HasSum(c.data_type)) AddOutput(info, bind, c.name + "_sum", SumType(c.data_type), OutputColumn::kSum, j);
    if (ColumnAggregate(c.data_type).has_avg()) {
      AddOutput(info, bind, c.name + "_avg", DUCKDB_TYPE_DOUBLE, OutputColumn::kAvg, j);
    }
  }
}

// bucket := and time_zone := into the options: a fixed width, or calendar buckets — an INTERVAL of
// months always, one of whole days with a time zone — in the zone (UTC without one).
absl::Status BucketsOf(duckdb_bind_info info, AggregateBind& bind) {
  absl::StatusOr<BucketParameter> bucket = NamedBucket(info, bind.time, kFunction);
  if (!bucket.ok()) return bucket.status();
  const std::optional<std::string> zone = NamedString(info, "time_zone");
  CalendarBuckets& calendar = bind.options.bucket_calendar;
  if (bucket->months > 0) {
    calendar.unit = CalendarUnit::kMonth;
    calendar.count = bucket->months;
  } else if (zone.has_value() && bucket->days > 0) {
    calendar.unit = CalendarUnit::kDay;
    calendar.count = bucket->days;
  } else if (zone.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        kFunction, ": time_zone applies to calendar buckets (an INTERVAL of whole days or months)"));
  } else {
    bind.options.bucket_width = bucket->width;
    return absl::OkStatus();
  }
  calendar.units_per_second = UnitsPerSecond(bind.time);
  if (zone.has_value()) {
    absl::StatusOr<absl::TimeZone> parsed = ParseTimeZone(*zone);
    if (!parsed.ok()) return absl::InvalidArgumentError(absl::StrCat(kFunction, ": time_zone: ", parsed.status().message()));
    calendar.zone = *parsed;
  }
  return absl::OkStatus();
}

absl::Status Bind(duckdb_bind_info info) {
  auto bind = std::make_unique<AggregateBind>();
  absl::StatusOr<TimeMapping> time = NamedTimeMapping(info, kFunction);
  if (!time.ok()) return time.status();
  bind->time = *time;
  absl::StatusOr<TimeRange> range = NamedTimeRange(info, bind->time, kFunction);
  if (!range.ok()) return range.status();
  bind->options.time_range = *range;
  if (absl::Status s = BucketsOf(info, *bind); !s.ok()) return s;
  // fill_empty := true: the buckets without rows too (IoTDB's GROUP BY returns them).
  if (NamedBool(info, "fill_empty")) {
    if (!bind->options.HasBuckets()) {
      return absl::InvalidArgumentError(absl::StrCat(kFunction, ": fill_empty needs bucket"));
    }
    bind->options.fill_empty_buckets = true;
  }
  // origin := where buckets start (IoTDB's GROUP BY ([start, end), step) starts them at start).
  absl::StatusOr<std::optional<int64_t>> origin = NamedTimePoint(info, bind->time, "origin", kFunction);
  if (!origin.ok()) return origin.status();
  if (origin->has_value()) {
    if (!bind->options.HasBuckets()) return absl::InvalidArgumentError(absl::StrCat(kFunction, ": origin needs bucket"));
    if (bind->options.bucket_calendar.enabled()) {
      bind->options.bucket_calendar.origin = **origin;
    } else {
      bind->options.bucket_origin = **origin;
    }
  }
  if (absl::Status s = ParseTags(info, kFunction, bind->options.tag_predicates); !s.ok()) return s;
  // filter := the rows that count (AggregateOptions::value_predicates; conditions on TAG values alone
  // name devices, and statistics still answer).
  if (absl::Status s = ParseFilter(info, kFunction, bind->options.value_predicates); !s.ok()) return s;
  // by := 'device' (default) or 'table', as the CLI's --by and Python's by=.
  if (std::optional<std::string> by = NamedString(info, "by"); by.has_value() && *by != "device") {
    if (*by != "table") {
      return absl::InvalidArgumentError(absl::StrCat(kFunction, ": by takes 'device' or 'table', not '", *by, "'"));
    }
    bind->options.by = AggregateGroupBy::kTable;
  }
  absl::StatusOr<DataParameter> data = OpenDataParameter(info, kFunction);
  if (!data.ok()) return data.status();
  bind->data = std::move(*data);
  absl::StatusOr<std::pair<std::string, TableSchema>> table =
      TableOfData(bind->data, NamedString(info, "table_name"), kFunction);
  if (!table.ok()) return table.status();
  bind->options.table = table->first;
  const TableSchema* schema = &table->second;
  for (const ColumnSchema& c : schema->columns) {
    if (c.category == ColumnCategory::kTag) bind->tags.push_back(c.name);
    if (c.category == ColumnCategory::kField) bind->fields.push_back(c);
  }
  AddOutputs(info, *bind);
  duckdb_bind_set_bind_data(info, bind.release(), DeleteAs<AggregateBind>);
  return absl::OkStatus();
}

absl::Status Init(duckdb_init_info info) {
  const auto* bind = static_cast<const AggregateBind*>(duckdb_init_get_bind_data(info));
  auto state = std::make_unique<AggregateState>();
  // Only the FIELD columns a projected output needs are aggregated (and decoded where needed).
  std::vector<bool> used(bind->fields.size(), false);
  for (idx_t i = 0; i < duckdb_init_get_column_count(info); ++i) {
    const idx_t id = duckdb_init_get_column_index(info, i);
    OutputColumn out;  // a virtual column (row id): rows, unused
    if (id < bind->outputs.size()) out = bind->outputs[id];
    if (out.kind >= OutputColumn::kCount) used[out.index] = true;
    state->outputs.push_back(out);
  }
  const AggregateOptions options = WithUsedFields(bind->options, bind->fields, used, state->result_column);
  if (bind->data.iotdb != nullptr) {
    absl::StatusOr<TableAggregate> result = AggregateIotdb(*bind->data.iotdb, options);
    if (!result.ok()) return result.status();
    state->result = std::move(*result);
  } else {
    // DuckDB's thread count is not known here: the tasks suit the machine's, and DuckDB runs them
    // on as many threads as its setting allows.
    absl::StatusOr<std::unique_ptr<AggregateTasks>> tasks =
        AggregateTasks::Create(*bind->data.dataset, options, std::max(1u, std::thread::hardware_concurrency()));
    if (!tasks.ok()) return tasks.status();
    state->tasks = std::move(*tasks);
    duckdb_init_set_max_threads(info, std::max<idx_t>(1, state->tasks->size()));
  }
  duckdb_init_set_init_data(info, state.release(), DeleteAs<AggregateState>);
  return absl::OkStatus();
}

// Whether this thread writes the groups: it ran the last task to finish (and merged them), or it
// came first to groups aggregated at init. Runs tasks until none is left.
absl::StatusOr<bool> RunTasks(AggregateState& state, ThreadState& thread) {
  if (state.tasks == nullptr) return !state.writer_chosen.exchange(true);
  const size_t total = state.tasks->size();
  if (total == 0) return !state.writer_chosen.exchange(true);  // no files: Finish at once
  for (size_t t = state.next_task++; t < total; t = state.next_task++) {
    if (absl::Status s = state.tasks->Run(t, thread.cursor); !s.ok()) return s;
    // acq_rel: the thread that sees the count reach the total sees every task's groups.
    if (state.tasks_done.fetch_add(1, std::memory_order_acq_rel) + 1 == total) return true;
  }
  return false;
}

// Output column `out` of group `g` into row `row` of `vector`.
absl::Status WriteOutput(duckdb_vector vector, size_t row, const OutputColumn& out, const GroupAggregate& g,
                         const AggregateBind& bind, const AggregateState& state) {
  const std::string_view column = out.kind >= OutputColumn::kCount ? std::string_view(bind.fields[out.index].name)
                                  : out.kind == OutputColumn::kTag ? std::string_view(bind.tags[out.index])
                                                                   : std::string_view("time");
  const ValueContext where{kFunction, g.device, column};
  switch (out.kind) {
    case OutputColumn::kTag:
      if (!g.tags[out.index]) break;
      return WriteText(vector, row, *g.tags[out.index], where);
    case OutputColumn::kBucket:
      if (!g.bucket) break;
      return WriteTime(vector, row, *g.bucket, bind.time, where);
    case OutputColumn::kRows:
      static_cast<int64_t*>(duckdb_vector_get_data(vector))[row] = static_cast<int64_t>(g.rows);
      return absl::OkStatus();
    case OutputColumn::kFirstTime:
      if (g.rows == 0) break;  // a filled empty bucket
      return WriteTime(vector, row, g.first_time, bind.time, where);
    case OutputColumn::kLastTime:
      if (g.rows == 0) break;
      return WriteTime(vector, row, g.last_time, bind.time, where);
    default: {
      const ColumnAggregate& c = g.columns[state.result_column[out.index]];
      if (out.kind == OutputColumn::kCount) {
        static_cast<int64_t*>(duckdb_vector_get_data(vector))[row] = static_cast<int64_t>(c.count());
        return absl::OkStatus();
      }
      if (c.count() == 0) break;
      const DataType type = c.type();
      if (out.kind == OutputColumn::kSum) {
        WriteSum(vector, row, c);
        return absl::OkStatus();
      }
      if (out.kind == OutputColumn::kAvg) {
        static_cast<double*>(duckdb_vector_get_data(vector))[row] = c.avg();
        return absl::OkStatus();
      }
      const AggregateValue& v = out.kind == OutputColumn::kMin   ? c.min()
                                : out.kind == OutputColumn::kMax ? c.max()
                                : out.kind == OutputColumn::kFirst ? c.first()
                                                                   : c.last();
      return WriteValue(vector, row, type, v, bind.time, where);
    }
  }
  SetNull(vector, row);
  return absl::OkStatus();
}

absl::Status Scan(duckdb_function_info info, duckdb_data_chunk output) {
  const auto* bind = static_cast<const AggregateBind*>(duckdb_function_get_bind_data(info));
  auto* state = static_cast<AggregateState*>(duckdb_function_get_init_data(info));
  auto* thread = static_cast<ThreadState*>(duckdb_function_get_local_init_data(info));
  if (!thread->writes) {
    absl::StatusOr<bool> writes = RunTasks(*state, *thread);
    if (!writes.ok()) return writes.status();
    if (!*writes) {
      duckdb_data_chunk_set_size(output, 0);
      return absl::OkStatus();
    }
    thread->writes = true;
    if (state->tasks != nullptr) {
      absl::StatusOr<TableAggregate> result = state->tasks->Finish();
      if (!result.ok()) return result.status();
      state->result = std::move(*result);
    }
  }
  return WriteGroups<AggregateBind, AggregateState, WriteOutput>(*bind, *state, state->result.groups, thread->next,
                                                                  output);
}

}  // namespace

bool RegisterTsfileAggregate(duckdb_connection connection) {
  duckdb_table_function function = NewDatasetTableFunction(kFunction);
  AddNamedParameter(function, "table_name", DUCKDB_TYPE_VARCHAR);
  AddNamedParameter(function, "tags", DUCKDB_TYPE_ANY);
  AddNamedParameter(function, "filter", DUCKDB_TYPE_VARCHAR);
  AddNamedParameter(function, "bucket", DUCKDB_TYPE_ANY);
  AddNamedParameter(function, "by", DUCKDB_TYPE_VARCHAR);
  AddNamedParameter(function, "origin", DUCKDB_TYPE_ANY);
  AddNamedParameter(function, "fill_empty", DUCKDB_TYPE_BOOLEAN);
  AddNamedParameter(function, "time_zone", DUCKDB_TYPE_VARCHAR);
  AddTimeRangeParameters(function);
  duckdb_table_function_supports_projection_pushdown(function, true);
  duckdb_table_function_set_local_init(function, InitCallback<InitThreadState<ThreadState>>);
  return RegisterTableFunction(connection, function, BindCallback<Bind>, InitCallback<Init>, ScanCallback<Scan>);
}

}  // namespace tsread::duckdb_ext
