#include "tsread/duckdb/metadata_functions.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/time_parameters.h"
#include "tsread/dataset/dataset.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::duckdb_ext {
namespace {

// Rows and the time range they span, merged from statistics.
struct Span {
  uint64_t count = 0;
  bool has_time = false;
  int64_t start = 0, end = 0;

  void Add(uint64_t n, int64_t first, int64_t last) {
    count += n;
    if (n == 0) return;
    start = has_time ? std::min(start, first) : first;
    end = has_time ? std::max(end, last) : last;
    has_time = true;
  }
  void Add(const Statistics& s) { Add(s.count, s.start_time, s.end_time); }
};

struct ColumnRow {
  ColumnRow() = default;
  ColumnRow(size_t file, std::optional<std::string> table, std::string column, std::string_view category,
            std::string_view type)
      : file(file), table(std::move(table)), column(std::move(column)), category(category), type(type) {}

  size_t file = 0;
  std::optional<std::string> table;  // nullopt: a tree-model measurement
  std::string column;
  std::string category;
  std::string type;
  uint64_t devices = 0;  // devices with at least one value in the column
  std::optional<uint64_t> rows;  // the table's rows (tables only)
  Span values;  // non-null values and their time range
};

struct DeviceRow {
  size_t file = 0;
  std::optional<std::string> table;
  std::string device;
  // Table devices: each TAG column (schema order) and its value; nullopt for tree devices.
  std::optional<std::vector<std::pair<std::string, std::optional<std::string>>>> tags;
  std::optional<uint64_t> rows;  // the time column's count (aligned devices)
  Span points;                   // non-null values over the value series
  Span time;                     // the rows' (or points') time range
};

struct BindData {
  std::unique_ptr<Dataset> dataset;
  TimeMapping time;
  std::optional<std::string> table;  // tsfile_devices: only this table's devices
};

template <typename Row>
struct GlobalState {
  std::vector<Row> rows;
  size_t next = 0;  // one thread (max threads is left at 1)
};

// The bind data both functions start from: `time_unit` (read first, so that a bad unit is
// reported before any file is opened), then the dataset named by the path parameter.
absl::StatusOr<std::unique_ptr<BindData>> BindUnitAndDataset(duckdb_bind_info info, const char* function) {
  auto bind = std::make_unique<BindData>();
  absl::StatusOr<TimeMapping> time = NamedTimeMapping(info, function);
  if (!time.ok()) return time.status();
  bind->time = *time;
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = OpenDatasetParameter(info, function);
  if (!dataset.ok()) return dataset.status();
  bind->dataset = std::move(*dataset);
  return bind;
}

// The last result columns of both functions (the time range, in the bound unit), then the bind
// data handed to DuckDB.
void FinishBind(duckdb_bind_info info, std::unique_ptr<BindData> bind) {
  AddResultColumn(info, "start_time", TimestampType(bind->time));
  AddResultColumn(info, "end_time", TimestampType(bind->time));
  duckdb_bind_set_bind_data(info, bind.release(), DeleteAs<BindData>);
}

// The init of both functions: every row, collected up front from each file's metadata by
// `collect(bind, reader, file index, rows)`, into the global state the scan emits from. A file
// that fails to open or to collect fails the query, naming the file.
template <typename Row, typename Collect>
absl::Status InitRows(duckdb_init_info info, const Collect& collect) {
  const auto* bind = static_cast<const BindData*>(duckdb_init_get_bind_data(info));
  auto state = std::make_unique<GlobalState<Row>>();
  const Dataset& dataset = *bind->dataset;
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    const std::string& path = dataset.files()[f].path;
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset.OpenFile(f);
    if (!reader.ok()) return WithFileName(reader.status(), path);
    if (absl::Status s = collect(*bind, **reader, f, state->rows); !s.ok()) return WithFileName(s, path);
  }
  duckdb_init_set_init_data(info, state.release(), DeleteAs<GlobalState<Row>>);
  return absl::OkStatus();
}

// ---- tsfile_metadata ---------------------------------------------------------------------

absl::Status CollectTable(const TsFileReader& reader, const TableSchema& schema, size_t file,
                          std::vector<ColumnRow>& out) {
  ColumnRow time(file, schema.name, "time", "TIME", "TIMESTAMP");
  std::vector<ColumnRow> columns;
  std::map<std::string, size_t, std::less<>> by_name;
  std::vector<size_t> tag_columns;  // indexes into columns, schema TAG order
  for (const ColumnSchema& c : schema.columns) {
    by_name.emplace(c.name, columns.size());
    if (c.category == ColumnCategory::kTag) tag_columns.push_back(columns.size());
    columns.emplace_back(file, schema.name, c.name, ColumnCategoryName(c.category), DataTypeName(c.data_type));
  }
  if (reader.metadata().FindIndex(schema.name) != nullptr) {
    ReadAhead ahead;  // the devices' series metadata, in index order
    absl::Status status = reader.ForEachDevice(schema.name, [&](const DeviceEntry& device) -> absl::Status {
      absl::StatusOr<std::vector<TimeseriesMetadata>> series = reader.ReadTimeseries(device.location, &ahead);
      if (!series.ok()) return series.status();
      Span device_rows;
      for (const TimeseriesMetadata& tsm : *series) {
        if (tsm.is_time_column()) {
          device_rows.Add(tsm.statistics);
          continue;
        }
        auto it = by_name.find(tsm.measurement);
        if (it == by_name.end() || tsm.statistics.count == 0) continue;
        ColumnRow& column = columns[it->second];
        ++column.devices;
        column.values.Add(tsm.statistics);
      }
      ++time.devices;
      time.values.Add(device_rows.count, device_rows.start, device_rows.end);
      // A TAG column has a value in every row of a device whose segment (k + 1 for the k-th TAG
      // column; segment 0 is the table) is present and not null.
      size_t segment = 0;
      device.id.ForEachSegment([&](NullableView value) {
        if (segment >= 1 && segment <= tag_columns.size() && value.has_value() && device_rows.count > 0) {
          ColumnRow& column = columns[tag_columns[segment - 1]];
          ++column.devices;
          column.values.Add(device_rows.count, device_rows.start, device_rows.end);
        }
        ++segment;
      });
      return absl::OkStatus();
    });
    if (!status.ok()) return status;
  }
  time.rows = time.values.count;
  for (ColumnRow& c : columns) c.rows = time.values.count;
  out.push_back(std::move(time));
  for (ColumnRow& c : columns) out.push_back(std::move(c));
  return absl::OkStatus();
}

absl::Status CollectTree(const TsFileReader& reader, size_t file, std::vector<ColumnRow>& out) {
  std::map<std::pair<std::string, DataType>, ColumnRow> series_rows;  // by measurement, then type
  for (const std::string& index : reader.TreeIndexNames()) {
    ReadAhead ahead;
    absl::Status status = reader.ForEachDevice(index, [&](const DeviceEntry& device) -> absl::Status {
      return reader.ForEachTimeseries(
          device.location,
          [&](TimeseriesMetadata&& tsm) {
            if (tsm.is_time_column()) return absl::OkStatus();
            ColumnRow& row = series_rows[{tsm.measurement, tsm.data_type}];
            if (row.column.empty()) {
              row = ColumnRow(file, std::nullopt, tsm.measurement, "FIELD", DataTypeName(tsm.data_type));
            }
            ++row.devices;  // a device's series, with or without points
            row.values.Add(tsm.statistics);
            return absl::OkStatus();
          },
          &ahead);
    });
    if (!status.ok()) return status;
  }
  for (auto& [key, row] : series_rows) out.push_back(std::move(row));
  return absl::OkStatus();
}

absl::Status MetadataBind(duckdb_bind_info info) {
  absl::StatusOr<std::unique_ptr<BindData>> bind = BindUnitAndDataset(info, "tsfile_metadata");
  if (!bind.ok()) return bind.status();
  AddResultColumn(info, "file", DUCKDB_TYPE_VARCHAR);
  AddResultColumn(info, "table_name", DUCKDB_TYPE_VARCHAR);
  AddResultColumn(info, "column_name", DUCKDB_TYPE_VARCHAR);
  AddResultColumn(info, "category", DUCKDB_TYPE_VARCHAR);
  AddResultColumn(info, "data_type", DUCKDB_TYPE_VARCHAR);
  AddResultColumn(info, "devices", DUCKDB_TYPE_BIGINT);
  AddResultColumn(info, "rows", DUCKDB_TYPE_BIGINT);
  AddResultColumn(info, "non_null", DUCKDB_TYPE_BIGINT);
  FinishBind(info, std::move(*bind));
  return absl::OkStatus();
}

absl::Status MetadataInit(duckdb_init_info info) {
  return InitRows<ColumnRow>(
      info, [](const BindData&, const TsFileReader& reader, size_t file, std::vector<ColumnRow>& rows) {
        for (const TableSchema* schema : reader.Tables()) {
          if (absl::Status s = CollectTable(reader, *schema, file, rows); !s.ok()) return s;
        }
        return CollectTree(reader, file, rows);
      });
}

// ---- output helpers -----------------------------------------------------------------------------

void WriteOptionalString(duckdb_vector vector, size_t row, const std::optional<std::string>& value) {
  if (value) {
    SetString(vector, row, *value);
  } else {
    SetNull(vector, row);
  }
}

void WriteOptionalCount(duckdb_vector vector, size_t row, std::optional<uint64_t> value) {
  static_cast<int64_t*>(duckdb_vector_get_data(vector))[row] = static_cast<int64_t>(value.value_or(0));
  if (!value) SetNull(vector, row);
}

// The span's start and end into two TIMESTAMP vectors (NULL when it has no time).
absl::Status WriteTimeRange(const Span& span, const TimeMapping& mapping, duckdb_vector start, duckdb_vector end, size_t row,
                            const std::string& path) {
  if (!span.has_time) {
    SetNull(start, row);
    SetNull(end, row);
    return absl::OkStatus();
  }
  std::optional<int64_t> s = ToOutputTime(span.start, mapping), e = ToOutputTime(span.end, mapping);
  if (!s || !e) {
    return absl::OutOfRangeError(
        absl::StrCat(path, ": time ", s ? span.end : span.start, " is out of range of TIMESTAMP ", kTimeRangeAdvice));
  }
  static_cast<int64_t*>(duckdb_vector_get_data(start))[row] = *s;
  static_cast<int64_t*>(duckdb_vector_get_data(end))[row] = *e;
  return absl::OkStatus();
}

// The rows [next, next + chunk) of the global state, each written by `write`.
template <typename Row, typename Write>
absl::Status EmitRows(duckdb_function_info info, duckdb_data_chunk output, const Write& write) {
  auto* state = static_cast<GlobalState<Row>*>(duckdb_function_get_init_data(info));
  const size_t n = std::min<size_t>(duckdb_vector_size(), state->rows.size() - state->next);
  for (size_t r = 0; r < n; ++r) {
    if (absl::Status s = write(state->rows[state->next + r], r); !s.ok()) return s;
  }
  state->next += n;
  duckdb_data_chunk_set_size(output, n);
  return absl::OkStatus();
}

absl::Status MetadataScan(duckdb_function_info info, duckdb_data_chunk output) {
  const auto* bind = static_cast<const BindData*>(duckdb_function_get_bind_data(info));
  duckdb_vector v[10];
  for (idx_t i = 0; i < 10; ++i) v[i] = duckdb_data_chunk_get_vector(output, i);
  return EmitRows<ColumnRow>(info, output, [&](const ColumnRow& row, size_t r) {
    const std::string& path = bind->dataset->files()[row.file].path;
    SetString(v[0], r, path);
    WriteOptionalString(v[1], r, row.table);
    SetString(v[2], r, row.column);
    SetString(v[3], r, row.category);
    SetString(v[4], r, row.type);
    WriteOptionalCount(v[5], r, row.devices);
    WriteOptionalCount(v[6], r, row.rows);
    WriteOptionalCount(v[7], r, row.values.count);
    return WriteTimeRange(row.values, bind->time, v[8], v[9], r, path);
  });
}

// ---- tsfile_devices -----------------------------------------------------------------------------

absl::Status CollectDevices(const TsFileReader& reader, const std::string& index, const TableSchema* schema,
                            size_t file, std::vector<DeviceRow>& out) {
  std::vector<std::string> tag_names;
  if (schema != nullptr) {
    for (const ColumnSchema& c : schema->columns) {
      if (c.category == ColumnCategory::kTag) tag_names.push_back(c.name);
    }
  }
  ReadAhead ahead;
  return reader.ForEachDevice(index, [&](const DeviceEntry& device) -> absl::Status {
    DeviceRow row;
    row.file = file;
    row.device = device.id.ToString();
    if (schema != nullptr) {
      row.table = schema->name;
      std::vector<std::optional<std::string>> segments;
      device.id.ForEachSegment([&](NullableView s) {
        segments.push_back(s.has_value() ? std::optional<std::string>(std::string(*s)) : std::nullopt);
      });
      row.tags.emplace();
      for (size_t k = 0; k < tag_names.size(); ++k) {
        // A missing trailing segment is a null tag (writers drop trailing nulls).
        row.tags->emplace_back(tag_names[k], k + 1 < segments.size() ? segments[k + 1] : std::nullopt);
      }
    }
    Span rows;
    bool aligned = false;
    absl::Status status = reader.ForEachTimeseries(
        device.location,
        [&](TimeseriesMetadata&& tsm) {
          if (tsm.is_time_column()) {
            aligned = true;
            rows.Add(tsm.statistics);
          } else {
            row.points.Add(tsm.statistics);
          }
          return absl::OkStatus();
        },
        &ahead);
    if (!status.ok()) return status;
    if (aligned) row.rows = rows.count;
    row.time = aligned ? rows : row.points;
    out.push_back(std::move(row));
    return absl::OkStatus();
  });
}

absl::Status DevicesBind(duckdb_bind_info info) {
  absl::StatusOr<std::unique_ptr<BindData>> bind = BindUnitAndDataset(info, "tsfile_devices");
  if (!bind.ok()) return bind.status();
  (*bind)->table = NamedString(info, "table_name");
  if ((*bind)->table) {
    // The same wording as read_tsfile's unknown table (Dataset::ReconciledSchema).
    absl::StatusOr<TableSchema> schema = (*bind)->dataset->ReconciledSchema(*(*bind)->table);
    if (!schema.ok()) return schema.status();
  }
  AddResultColumn(info, "file", DUCKDB_TYPE_VARCHAR);
  AddResultColumn(info, "table_name", DUCKDB_TYPE_VARCHAR);
  AddResultColumn(info, "device", DUCKDB_TYPE_VARCHAR);
  {
    duckdb_logical_type varchar = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_logical_type map = duckdb_create_map_type(varchar, varchar);
    AddResultColumn(info, "tags", map);
    duckdb_destroy_logical_type(&map);
    duckdb_destroy_logical_type(&varchar);
  }
  AddResultColumn(info, "rows", DUCKDB_TYPE_BIGINT);
  AddResultColumn(info, "points", DUCKDB_TYPE_BIGINT);
  FinishBind(info, std::move(*bind));
  return absl::OkStatus();
}

absl::Status DevicesInit(duckdb_init_info info) {
  return InitRows<DeviceRow>(
      info, [](const BindData& bind, const TsFileReader& reader, size_t file, std::vector<DeviceRow>& rows) {
        for (const TableSchema* schema : reader.Tables()) {
          if (bind.table && schema->name != *bind.table) continue;
          if (reader.metadata().FindIndex(schema->name) == nullptr) continue;  // a schema without data
          if (absl::Status s = CollectDevices(reader, schema->name, schema, file, rows); !s.ok()) return s;
        }
        if (bind.table) return absl::OkStatus();  // a table's devices only: no tree-model devices
        for (const std::string& index : reader.TreeIndexNames()) {
          if (absl::Status s = CollectDevices(reader, index, nullptr, file, rows); !s.ok()) return s;
        }
        return absl::OkStatus();
      });
}

// The tags MAP(VARCHAR, VARCHAR) of rows [0, n): list entries into the map's child struct vector.
void WriteTagMaps(duckdb_vector map, const std::vector<const DeviceRow*>& rows) {
  size_t total = 0;
  for (const DeviceRow* row : rows) total += row->tags ? row->tags->size() : 0;
  const idx_t base = duckdb_list_vector_get_size(map);
  duckdb_list_vector_reserve(map, base + total);
  duckdb_vector entries = duckdb_list_vector_get_child(map);
  duckdb_vector keys = duckdb_struct_vector_get_child(entries, 0);
  duckdb_vector values = duckdb_struct_vector_get_child(entries, 1);
  auto* lists = static_cast<duckdb_list_entry*>(duckdb_vector_get_data(map));
  idx_t offset = base;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (!rows[r]->tags) {
      lists[r] = {offset, 0};
      SetNull(map, r);
      continue;
    }
    lists[r] = {offset, rows[r]->tags->size()};
    for (const auto& [name, value] : *rows[r]->tags) {
      SetString(keys, offset, name);
      WriteOptionalString(values, offset, value);
      ++offset;
    }
  }
  duckdb_list_vector_set_size(map, offset);
}

absl::Status DevicesScan(duckdb_function_info info, duckdb_data_chunk output) {
  const auto* bind = static_cast<const BindData*>(duckdb_function_get_bind_data(info));
  duckdb_vector v[8];
  for (idx_t i = 0; i < 8; ++i) v[i] = duckdb_data_chunk_get_vector(output, i);
  std::vector<const DeviceRow*> chunk;
  absl::Status status = EmitRows<DeviceRow>(info, output, [&](const DeviceRow& row, size_t r) {
    const std::string& path = bind->dataset->files()[row.file].path;
    chunk.push_back(&row);
    SetString(v[0], r, path);
    WriteOptionalString(v[1], r, row.table);
    SetString(v[2], r, row.device);
    WriteOptionalCount(v[4], r, row.rows);
    WriteOptionalCount(v[5], r, row.points.count);
    return WriteTimeRange(row.time, bind->time, v[6], v[7], r, path);
  });
  if (!status.ok()) return status;
  WriteTagMaps(v[3], chunk);
  return absl::OkStatus();
}

}  // namespace

bool RegisterTsfileMetadata(duckdb_connection connection) {
  return RegisterTableFunction(connection, NewDatasetTableFunction("tsfile_metadata"), BindCallback<MetadataBind>,
                               InitCallback<MetadataInit>, ScanCallback<MetadataScan>);
}

bool RegisterTsfileDevices(duckdb_connection connection) {
  duckdb_table_function function = NewDatasetTableFunction("tsfile_devices");
  AddNamedParameter(function, "table_name", DUCKDB_TYPE_VARCHAR);
  return RegisterTableFunction(connection, function, BindCallback<DevicesBind>, InitCallback<DevicesInit>,
                               ScanCallback<DevicesScan>);
}

}  // namespace tsread::duckdb_ext
