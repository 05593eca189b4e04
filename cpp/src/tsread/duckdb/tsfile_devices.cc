// tsfile_devices(path): one row per file x device, from metadata alone (metadata_functions.h).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tsread/common/utf8.h"
#include "tsread/duckdb/metadata_functions.h"
#include "tsread/duckdb/metadata_rows.h"

namespace tsread::duckdb_ext {
namespace {

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
    // DuckDB reads bytes that are not UTF-8 in a VARCHAR as NULL: refuse them instead (a device
    // id's segments are the table's name and its TAG values).
    if (!IsValidUtf8(row.device)) {
      return absl::DataLossError("a device id is not valid UTF-8 (a TAG value or the table name holds other bytes)");
    }
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

// The result columns every call has.
constexpr const char* kFixedColumns[] = {"file", "table_name", "device", "tags", "rows", "points", "start_time", "end_time"};

// When the call lists one table's devices (table_name, or a dataset of one table and no
// tree-model data): its TAG columns, as columns of their own so that the result joins
// read_tsfile on them (USING (region, device)). A TAG column named like a fixed column is left to
// the tags map.
std::vector<std::string> TagColumnsOf(const Dataset& dataset, const std::optional<std::string>& table) {
  std::optional<std::string> only = table;
  if (!only) {
    const std::vector<std::string> names = dataset.TableNames();
    const bool tree = std::any_of(dataset.files().begin(), dataset.files().end(),
                                  [](const DatasetFile& f) { return f.has_tree_model; });
    if (names.size() != 1 || tree) return {};
    only = names[0];
  }
  absl::StatusOr<TableSchema> schema = dataset.ReconciledSchema(*only);
  if (!schema.ok()) return {};
  std::vector<std::string> out;
  for (const ColumnSchema& c : schema->columns) {
    if (c.category != ColumnCategory::kTag) continue;
    if (std::find(std::begin(kFixedColumns), std::end(kFixedColumns), c.name) != std::end(kFixedColumns)) continue;
    out.push_back(c.name);
  }
  return out;
}

// A device's value of TAG column `name` (nullopt: null, or no such column in its file).
std::optional<std::string> TagValue(const DeviceRow& row, const std::string& name) {
  if (!row.tags) return std::nullopt;
  for (const auto& [column, value] : *row.tags) {
    if (column == name) return value;
  }
  return std::nullopt;
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
  (*bind)->tag_columns = TagColumnsOf(*(*bind)->dataset, (*bind)->table);
  for (const std::string& name : (*bind)->tag_columns) AddResultColumn(info, name.c_str(), DUCKDB_TYPE_VARCHAR);
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
  // file, table_name, device, tags, rows, points, the TAG columns, start_time, end_time.
  const size_t tags = bind->tag_columns.size();
  std::vector<duckdb_vector> v(8 + tags);
  for (idx_t i = 0; i < v.size(); ++i) v[i] = duckdb_data_chunk_get_vector(output, i);
  std::vector<const DeviceRow*> chunk;
  absl::Status status = EmitRows<DeviceRow>(info, output, [&](const DeviceRow& row, size_t r) {
    const std::string& path = bind->dataset->files()[row.file].path;
    chunk.push_back(&row);
    SetString(v[0], r, path);
    WriteOptionalString(v[1], r, row.table);
    SetString(v[2], r, row.device);
    WriteOptionalCount(v[4], r, row.rows);
    WriteOptionalCount(v[5], r, row.points.count);
    for (size_t k = 0; k < tags; ++k) WriteOptionalString(v[6 + k], r, TagValue(row, bind->tag_columns[k]));
    return WriteTimeRange(row.time, bind->time, v[6 + tags], v[7 + tags], r, path);
  });
  if (!status.ok()) return status;
  WriteTagMaps(v[3], chunk);
  return absl::OkStatus();
}

}  // namespace

bool RegisterTsfileDevices(duckdb_connection connection) {
  duckdb_table_function function = NewDatasetTableFunction("tsfile_devices");
  AddNamedParameter(function, "table_name", DUCKDB_TYPE_VARCHAR);
  return RegisterTableFunction(connection, function, BindCallback<DevicesBind>, InitCallback<DevicesInit>,
                               ScanCallback<DevicesScan>);
}

}  // namespace tsread::duckdb_ext
