// tsfile_aggregate_tree and tsfile_last_tree (tsfile_tree_aggregates.h): bind (the dataset, the
// window), init (AggregateTree, computed once), scan (a vector of series at a time).
#include "tsread/duckdb/tsfile_tree_aggregates.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tsread/aggregate/iotdb_aggregate.h"
#include "tsread/aggregate/tree_aggregate.h"
#include "tsread/aggregate/value_text.h"
#include "tsread/duckdb/aggregate_vectors.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/time_parameters.h"
#include "tsread/io/status_macros.h"

namespace tsread::duckdb_ext {
namespace {

// The output columns of each function, in order.
enum class Out { kDevice, kMeasurement, kDataType, kCount, kMin, kMax, kFirst, kLast, kSum, kAvg, kFirstTime,
                 kLastTime, kTime, kValue };

struct TreeBind {
  const char* function = "";
  DataParameter data;  // the files, or IoTDB data read as IoTDB answers
  TimeMapping time;
  TreeAggregateOptions options;
  std::vector<Out> columns;
};

struct TreeState {
  TreeAggregate result;
  std::vector<idx_t> outputs;  // projected output column ids
  size_t next = 0;
};

template <Out... kColumns>
absl::Status Bind(duckdb_bind_info info, const char* function) {
  auto bind = std::make_unique<TreeBind>();
  bind->function = function;
  absl::StatusOr<TimeMapping> time = NamedTimeMapping(info, function);
  if (!time.ok()) return time.status();
  bind->time = *time;
  absl::StatusOr<TimeRange> range = NamedTimeRange(info, bind->time, function);
  if (!range.ok()) return range.status();
  bind->options.time_range = *range;
  absl::StatusOr<DataParameter> data = OpenDataParameter(info, function);
  if (!data.ok()) return data.status();
  bind->data = std::move(*data);
  const auto& files = bind->data.dataset->files();
  if (std::none_of(files.begin(), files.end(), [](const DatasetFile& f) { return f.has_tree_model; })) {
    if (absl::Status unreadable = bind->data.dataset->UnreadableFileStatus(); !unreadable.ok()) {
      return absl::Status(unreadable.code(), absl::StrCat(function, ": ", unreadable.message()));
    }
    return absl::InvalidArgumentError(absl::StrCat(function, ": ", files[0].path, files.size() > 1 ? " (and others)" : "",
                                                   " holds no tree-model data: aggregate its tables with tsfile_aggregate"));
  }
  for (Out c : {kColumns...}) {
    bind->columns.push_back(c);
    switch (c) {
      case Out::kDevice: AddResultColumn(info, "device", DUCKDB_TYPE_VARCHAR); break;
      case Out::kMeasurement: AddResultColumn(info, "measurement", DUCKDB_TYPE_VARCHAR); break;
      case Out::kDataType: AddResultColumn(info, "data_type", DUCKDB_TYPE_VARCHAR); break;
      case Out::kCount: AddResultColumn(info, "count", DUCKDB_TYPE_BIGINT); break;
      case Out::kMin: AddResultColumn(info, "min", DUCKDB_TYPE_VARCHAR); break;
      case Out::kMax: AddResultColumn(info, "max", DUCKDB_TYPE_VARCHAR); break;
      case Out::kFirst: AddResultColumn(info, "first", DUCKDB_TYPE_VARCHAR); break;
      case Out::kLast: AddResultColumn(info, "last", DUCKDB_TYPE_VARCHAR); break;
      case Out::kSum: AddResultColumn(info, "sum", DUCKDB_TYPE_DOUBLE); break;
      case Out::kAvg: AddResultColumn(info, "avg", DUCKDB_TYPE_DOUBLE); break;
      case Out::kFirstTime: AddResultColumn(info, "first_time", TimestampType(bind->time)); break;
      case Out::kLastTime: AddResultColumn(info, "last_time", TimestampType(bind->time)); break;
      case Out::kTime: AddResultColumn(info, "time", TimestampType(bind->time)); break;
      case Out::kValue: AddResultColumn(info, "value", DUCKDB_TYPE_VARCHAR); break;
    }
  }
  duckdb_bind_set_bind_data(info, bind.release(), DeleteAs<TreeBind>);
  return absl::OkStatus();
}

absl::Status BindAggregate(duckdb_bind_info info) {
  return Bind<Out::kDevice, Out::kMeasurement, Out::kDataType, Out::kCount, Out::kMin, Out::kMax, Out::kFirst,
              Out::kLast, Out::kSum, Out::kAvg, Out::kFirstTime, Out::kLastTime>(info, "tsfile_aggregate_tree");
}

absl::Status BindLast(duckdb_bind_info info) {
  return Bind<Out::kDevice, Out::kMeasurement, Out::kDataType, Out::kTime, Out::kValue>(info, "tsfile_last_tree");
}

absl::Status Init(duckdb_init_info info) {
  const auto* bind = static_cast<const TreeBind*>(duckdb_init_get_bind_data(info));
  auto state = std::make_unique<TreeState>();
  for (idx_t i = 0; i < duckdb_init_get_column_count(info); ++i) {
    state->outputs.push_back(duckdb_init_get_column_index(info, i));
  }
  absl::StatusOr<TreeAggregate> result = bind->data.iotdb != nullptr ? AggregateIotdbTree(*bind->data.iotdb, bind->options)
                                                                    : AggregateTree(*bind->data.dataset, bind->options);
  if (!result.ok()) return result.status();
  state->result = std::move(*result);
  duckdb_init_set_init_data(info, state.release(), DeleteAs<TreeState>);
  return absl::OkStatus();
}

// Output `column` of series `s` into row `row` of `vector`.
absl::Status WriteOutput(duckdb_vector vector, size_t row, Out column, const SeriesAggregate& s, const TreeBind& bind) {
  const ColumnAggregate& c = s.values;
  const ValueContext where{bind.function, s.device, s.measurement};
  const auto text = [&](bool present, const AggregateValue& v) {
    if (!present) {
      SetNull(vector, row);
      return absl::OkStatus();
    }
    return WriteText(vector, row, AggregateValueText(c.type(), v), where);
  };
  switch (column) {
    case Out::kDevice: return WriteText(vector, row, s.device, where);
    case Out::kMeasurement: return WriteText(vector, row, s.measurement, where);
    case Out::kDataType: SetString(vector, row, DataTypeName(c.type())); return absl::OkStatus();
    case Out::kCount: static_cast<int64_t*>(duckdb_vector_get_data(vector))[row] = static_cast<int64_t>(c.count()); return absl::OkStatus();
    case Out::kMin: return text(c.has_min_max(), c.min());
    case Out::kMax: return text(c.has_min_max(), c.max());
    case Out::kFirst: return text(true, c.first());
    case Out::kLast:
    case Out::kValue: return text(true, c.last());
    case Out::kSum:
      if (!c.has_sum()) {
        SetNull(vector, row);
      } else {
        static_cast<double*>(duckdb_vector_get_data(vector))[row] =
            IsFloatType(c.type()) ? c.float_sum() : static_cast<double>(c.int_sum());
      }
      return absl::OkStatus();
    case Out::kAvg:
      if (!c.has_avg()) {
        SetNull(vector, row);
      } else {
        static_cast<double*>(duckdb_vector_get_data(vector))[row] = c.avg();
      }
      return absl::OkStatus();
    case Out::kFirstTime: return WriteTime(vector, row, c.first_time(), bind.time, where);
    case Out::kLastTime:
    case Out::kTime: return WriteTime(vector, row, c.last_time(), bind.time, where);
  }
  return absl::OkStatus();
}

absl::Status Scan(duckdb_function_info info, duckdb_data_chunk output) {
  const auto* bind = static_cast<const TreeBind*>(duckdb_function_get_bind_data(info));
  auto* state = static_cast<TreeState*>(duckdb_function_get_init_data(info));
  const std::vector<SeriesAggregate>& series = state->result.series;
  const size_t n = std::min<size_t>(duckdb_vector_size(), series.size() - state->next);
  for (size_t i = 0; i < state->outputs.size(); ++i) {
    duckdb_vector vector = duckdb_data_chunk_get_vector(output, i);
    const idx_t id = state->outputs[i];
    for (size_t k = 0; k < n; ++k) {
      if (id >= bind->columns.size()) {  // a virtual column (row id): unused
        SetNull(vector, k);
        continue;
      }
      TSREAD_RETURN_IF_ERROR(WriteOutput(vector, k, bind->columns[id], series[state->next + k], *bind));
    }
  }
  state->next += n;
  duckdb_data_chunk_set_size(output, n);
  return absl::OkStatus();
}

bool Register(duckdb_connection connection, const char* name, duckdb_table_function_bind_t bind) {
  duckdb_table_function function = NewDatasetTableFunction(name);
  AddTimeRangeParameters(function);
  duckdb_table_function_supports_projection_pushdown(function, true);
  return RegisterTableFunction(connection, function, bind, InitCallback<Init>, ScanCallback<Scan>);
}

}  // namespace

bool RegisterTsfileAggregateTree(duckdb_connection connection) {
  return Register(connection, "tsfile_aggregate_tree", BindCallback<BindAggregate>);
}

bool RegisterTsfileLastTree(duckdb_connection connection) {
  return Register(connection, "tsfile_last_tree", BindCallback<BindLast>);
}

}  // namespace tsread::duckdb_ext
