#include "tsread/duckdb/read_tsfile_tree.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/common/blob_text.h"
#include "tsread/common/java_number_text.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/io/status_macros.h"
#include "tsread/dataset/source_rows.h"
#include "tsread/duckdb/time_parameters.h"
#include "tsread/dataset/dataset.h"
#include "tsread/read/series_reader.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::duckdb_ext {
namespace {

constexpr const char* kFunction = "read_tsfile_tree";

// One tree-model device of one file: the unit of work a thread takes.
struct TreeDevice {
  size_t file = 0;
  std::string name;
  DeviceLocation location;
};

struct BindData {
  // The files; with IoTDB data the IoTDB dataset's (an alias keeping `iotdb` alive).
  std::shared_ptr<const Dataset> dataset;
  // IoTDB data read as IoTDB answers (OpenIotdbParameter): each series merged; else nullptr.
  std::shared_ptr<const iotdb::IotdbDataset> iotdb;
  TimeRange range;
  TimeMapping time;
  bool filename = false;
};

struct GlobalState {
  std::vector<TreeDevice> devices;  // by file, then device string (IoTDB data: by device string)
  std::vector<iotdb::TreeDeviceFiles> iotdb_devices;  // IoTDB data: devices[i]'s files
  std::atomic<size_t> next{0};
  std::vector<idx_t> columns;  // projected output column ids
};

// A thread's position: its device, the device's sorted measurements, the series being read and
// the next row of its current page.
struct LocalState {
  const TreeDevice* device = nullptr;
  std::optional<size_t> reader_file;  // the file `reader` reads (consecutive devices share it)
  std::shared_ptr<const TsFileReader> reader;
  std::vector<TimeseriesMetadata> series;
  std::vector<std::string> measurements;
  size_t next_measurement = 0;
  std::unique_ptr<SeriesReader> points;  // declared after reader: destroyed before it
  const SeriesBatch* batch = nullptr;
  size_t row = 0;
  // IoTDB data: the device's merged series, one per measurements[i].
  std::vector<SeriesBatch> merged;
};

absl::Status Bind(duckdb_bind_info info) {
  auto bind = std::make_unique<BindData>();
  absl::StatusOr<TimeMapping> time = NamedTimeMapping(info, kFunction);
  if (!time.ok()) return time.status();
  bind->time = *time;
  absl::StatusOr<TimeRange> range = NamedTimeRange(info, bind->time, kFunction);
  if (!range.ok()) return range.status();
  bind->range = *range;
  bind->filename = NamedBool(info, "filename");
  absl::StatusOr<std::shared_ptr<const iotdb::IotdbDataset>> iotdb_data = OpenIotdbParameter(info, kFunction);
  if (!iotdb_data.ok()) return iotdb_data.status();
  bind->iotdb = std::move(*iotdb_data);
  if (bind->iotdb != nullptr) {
    bind->dataset = std::shared_ptr<const Dataset>(bind->iotdb, &bind->iotdb->dataset());
  } else {
    absl::StatusOr<std::unique_ptr<Dataset>> dataset = OpenDatasetParameter(info, kFunction);
    if (!dataset.ok()) return dataset.status();
    bind->dataset = std::move(*dataset);
  }
  const auto& files = bind->dataset->files();
  if (std::none_of(files.begin(), files.end(), [](const DatasetFile& f) { return f.has_tree_model; })) {
    return absl::InvalidArgumentError(absl::StrCat(kFunction, ": ", files[0].path,
                                                   files.size() > 1 ? " (and others)" : "",
                                                   " holds no tree-model data: read its tables with read_tsfile"));
  }
  AddResultColumn(info, "device", DUCKDB_TYPE_VARCHAR);
  AddResultColumn(info, "measurement", DUCKDB_TYPE_VARCHAR);
  AddResultColumn(info, "time", TimestampType(bind->time));
  AddResultColumn(info, "value", DUCKDB_TYPE_VARCHAR);
  if (bind->filename) AddResultColumn(info, "filename", DUCKDB_TYPE_VARCHAR);
  duckdb_bind_set_bind_data(info, bind.release(), DeleteAs<BindData>);
  return absl::OkStatus();
}

absl::Status Init(duckdb_init_info info) {
  const auto* bind = static_cast<const BindData*>(duckdb_init_get_bind_data(info));
  auto state = std::make_unique<GlobalState>();
  const Dataset& dataset = *bind->dataset;
  if (bind->iotdb != nullptr) {
    iotdb::TreeScanOptions options;
    options.time_range = bind->range;
    absl::StatusOr<std::vector<iotdb::TreeDeviceFiles>> devices = bind->iotdb->TreeDevices(options);
    if (!devices.ok()) return devices.status();
    state->iotdb_devices = std::move(*devices);
    for (const iotdb::TreeDeviceFiles& d : state->iotdb_devices) {
      state->devices.push_back(TreeDevice{d.places[0].file, d.name, d.places[0].location});
    }
  }
  for (size_t f = 0; f < dataset.files().size() && bind->iotdb == nullptr; ++f) {
    if (!dataset.files()[f].has_tree_model) continue;
    const std::string& path = dataset.files()[f].path;
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset.OpenFile(f);
    if (!reader.ok()) return WithFileName(reader.status(), path);
    const size_t first = state->devices.size();
    for (const std::string& index : (*reader)->TreeIndexNames()) {
      absl::Status s = (*reader)->ForEachDevice(index, [&](const DeviceEntry& entry) {
        state->devices.push_back(TreeDevice{f, entry.id.ToString(), entry.location});
        return absl::OkStatus();
      });
      if (!s.ok()) return WithFileName(s, path);
    }
    // Points are ordered by device string (the index orders segment-wise, format §6.4).
    std::stable_sort(state->devices.begin() + first, state->devices.end(),
                     [](const TreeDevice& a, const TreeDevice& b) { return a.name < b.name; });
  }
  const idx_t count = duckdb_init_get_column_count(info);
  for (idx_t i = 0; i < count; ++i) state->columns.push_back(duckdb_init_get_column_index(info, i));
  duckdb_init_set_max_threads(info, std::max<idx_t>(1, state->devices.size()));
  duckdb_init_set_init_data(info, state.release(), DeleteAs<GlobalState>);
  return absl::OkStatus();
}

// IoTDB data: device `index`'s merged series into local.merged and local.measurements.
absl::Status MergeDevice(const BindData& bind, const GlobalState& global, size_t index, LocalState& local) {
  local.merged.clear();
  local.measurements.clear();
  local.next_measurement = 0;
  iotdb::TreeScanOptions options;
  options.time_range = bind.range;
  return bind.iotdb->ScanTreeDevice(global.iotdb_devices[index], options,
                                    [&](std::string_view, std::string_view measurement, const std::vector<int64_t>& times,
                                        const ColumnVector& values, size_t begin, size_t end) {
                                      if (local.measurements.empty() || local.measurements.back() != measurement) {
                                        local.measurements.emplace_back(measurement);
                                        local.merged.emplace_back();
                                        local.merged.back().values.type = values.type;
                                        local.merged.back().values.Clear();
                                      }
                                      SeriesBatch& series = local.merged.back();
                                      ColumnVector part;  // rows [begin, end) of the values
                                      part.AssignRows(values, begin, end - begin);
                                      SourceRows rows;
                                      rows.times = std::move(series.times);
                                      rows.columns.push_back(std::move(series.values));
                                      AppendRows(std::span<const int64_t>(times).subspan(begin, end - begin),
                                                 std::span<const ColumnVector>(&part, 1), rows);
                                      series.times = std::move(rows.times);
                                      series.values = std::move(rows.columns[0]);
                                      return absl::OkStatus();
                                    });
}

// Moves `local` to its next device; false when every device is taken.
absl::StatusOr<bool> StartNextDevice(const BindData& bind, const Dataset& dataset, GlobalState& global,
                                     LocalState& local) {
  local.points.reset();
  local.batch = nullptr;
  const size_t index = global.next.fetch_add(1);
  if (index >= global.devices.size()) {
    local.device = nullptr;
    local.reader.reset();
    local.reader_file.reset();
    return false;
  }
  local.device = &global.devices[index];
  if (bind.iotdb != nullptr) {
    TSREAD_RETURN_IF_ERROR(MergeDevice(bind, global, index, local));
    return true;
  }
  if (local.reader_file != local.device->file) {
    local.reader.reset();
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset.OpenFile(local.device->file);
    if (!reader.ok()) return reader.status();
    local.reader = std::move(*reader);
    local.reader_file = local.device->file;
  }
  absl::StatusOr<std::vector<TimeseriesMetadata>> series = local.reader->ReadTimeseries(local.device->location);
  if (!series.ok()) return series.status();
  local.series = std::move(*series);
  local.measurements.clear();
  for (const TimeseriesMetadata& tsm : local.series) {
    if (!tsm.is_time_column()) local.measurements.push_back(tsm.measurement);
  }
  std::sort(local.measurements.begin(), local.measurements.end());
  local.next_measurement = 0;
  return true;
}

// The next non-null point of `local` (device, series, page, row) in range; false at the end.
absl::StatusOr<bool> NextPoint(const BindData& bind, GlobalState& global, LocalState& local) {
  const Dataset& dataset = *bind.dataset;
  while (true) {
    if (local.batch != nullptr) {
      while (local.row < local.batch->times.size()) {
        const size_t r = local.row;
        if (local.batch->values.IsValid(r) && bind.range.Contains(local.batch->times[r])) return true;
        ++local.row;
      }
      local.batch = nullptr;
    }
    if (local.points) {
      absl::StatusOr<const SeriesBatch*> batch = local.points->Next();
      if (!batch.ok()) return batch.status();
      if (*batch != nullptr) {
        local.batch = *batch;
        local.row = 0;
        continue;
      }
      local.points.reset();
    }
    if (bind.iotdb != nullptr && local.device != nullptr && local.next_measurement < local.measurements.size()) {
      local.batch = &local.merged[local.next_measurement++];
      local.row = 0;
      continue;
    }
    if (local.device != nullptr && local.next_measurement < local.measurements.size()) {
      absl::StatusOr<std::unique_ptr<SeriesReader>> points =
          SeriesReader::Create(*local.reader, local.device->name, local.series,
                               local.measurements[local.next_measurement++], bind.range);
      if (!points.ok()) return points.status();
      local.points = std::move(*points);
      continue;
    }
    absl::StatusOr<bool> started = StartNextDevice(bind, dataset, global, local);
    if (!started.ok() || !*started) return started;
  }
}

// A point's value as the text the CSV forms use (cli-contract.md): true/false, decimal integers
// (DATE as its stored yyyyMMdd, TIMESTAMP as its stored number), Java-style floats, the string
// itself, BLOB as 0x + lowercase hex.
absl::Status ValueText(const ColumnVector& v, size_t r, std::string& out) {
  out.clear();
  switch (v.type) {
    case DataType::kBoolean: out = v.bools[r] ? "true" : "false"; return absl::OkStatus();
    case DataType::kInt32:
    case DataType::kDate: absl::StrAppend(&out, v.int32s[r]); return absl::OkStatus();
    case DataType::kInt64:
    case DataType::kTimestamp: absl::StrAppend(&out, v.int64s[r]); return absl::OkStatus();
    case DataType::kFloat: AppendJavaFloat(out, v.floats[r]); return absl::OkStatus();
    case DataType::kDouble: AppendJavaDouble(out, v.doubles[r]); return absl::OkStatus();
    case DataType::kText:
    case DataType::kString:
      out.assign(v.binary(r));
      if (!ValidUtf8(out)) return absl::DataLossError("a value is not valid UTF-8");
      return absl::OkStatus();
    case DataType::kBlob:
      out.clear();
      AppendBlobHex(out, v.binary(r));
      return absl::OkStatus();
    default: return absl::UnimplementedError("unsupported data type");
  }
}

absl::Status Scan(duckdb_function_info info, duckdb_data_chunk output) {
  const auto* bind = static_cast<const BindData*>(duckdb_function_get_bind_data(info));
  auto* global = static_cast<GlobalState*>(duckdb_function_get_init_data(info));
  auto* local = static_cast<LocalState*>(duckdb_function_get_local_init_data(info));
  const idx_t capacity = duckdb_vector_size();
  std::string text;
  size_t n = 0;
  while (n < capacity) {
    absl::StatusOr<bool> more = NextPoint(*bind, *global, *local);
    if (!more.ok()) {
      const std::string& path =
          local->device ? bind->dataset->files()[local->device->file].path : bind->dataset->files()[0].path;
      return WithFileName(more.status(), path);
    }
    if (!*more) break;
    const SeriesBatch& batch = *local->batch;
    const size_t r = local->row++;
    const std::string& measurement = local->measurements[local->next_measurement - 1];
    const std::string& path = bind->dataset->files()[local->device->file].path;
    for (size_t c = 0; c < global->columns.size(); ++c) {
      duckdb_vector vector = duckdb_data_chunk_get_vector(output, c);
      switch (global->columns[c]) {
        case 0: SetString(vector, n, local->device->name); break;
        case 1: SetString(vector, n, measurement); break;
        case 2: {
          std::optional<int64_t> t = ToOutputTime(batch.times[r], bind->time);
          if (!t) {
            return absl::OutOfRangeError(absl::StrCat(path, ": time ", batch.times[r],
                                                      " is out of range of TIMESTAMP ", kTimeRangeAdvice));
          }
          static_cast<int64_t*>(duckdb_vector_get_data(vector))[n] = *t;
          break;
        }
        case 3:
          if (absl::Status s = ValueText(batch.values, r, text); !s.ok()) {
            return absl::DataLossError(
                absl::StrCat(path, ": series ", local->device->name, ".", measurement, ": ", s.message()));
          }
          SetString(vector, n, text);
          break;
        case 4: SetString(vector, n, path); break;
        default: static_cast<int64_t*>(duckdb_vector_get_data(vector))[n] = 0; break;  // a virtual column
      }
    }
    ++n;
  }
  duckdb_data_chunk_set_size(output, n);
  return absl::OkStatus();
}

}  // namespace

bool RegisterReadTsfileTree(duckdb_connection connection) {
  duckdb_table_function function =
      NewRowScanTableFunction("read_tsfile_tree", InitCallback<InitThreadState<LocalState>>);
  return RegisterTableFunction(connection, function, BindCallback<Bind>, InitCallback<Init>, ScanCallback<Scan>);
}

}  // namespace tsread::duckdb_ext
