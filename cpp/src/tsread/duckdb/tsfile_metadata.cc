// tsfile_metadata(path): one row per file x table x column, then per file x tree-model
// measurement x type, from metadata alone (metadata_functions.h).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tsread/duckdb/metadata_functions.h"
#include "tsread/duckdb/metadata_rows.h"

namespace tsread::duckdb_ext {
namespace {

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
  // A file left out by ignore_errors: its path and why (the row's other columns are NULL).
  std::optional<std::string> skipped_path;
  std::optional<std::string> error;
};

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
  AddResultColumn(info, "error", DUCKDB_TYPE_VARCHAR);  // why a file was skipped (ignore_errors), else NULL
  // The IoTDB deletion file beside the file (X.tsfile.mods2 or .mods), else NULL: applied by the
  // scans unless raw := true.
  AddResultColumn(info, "deletions", DUCKDB_TYPE_VARCHAR);
  // IoTDB data (not raw): the file's space ('sequence' or 'unsequence'), its version (the name's
  // second number), its deletion file's entries and what was wrong with it; else NULL.
  AddResultColumn(info, "space", DUCKDB_TYPE_VARCHAR);
  AddResultColumn(info, "version", DUCKDB_TYPE_BIGINT);
  AddResultColumn(info, "deletion_entries", DUCKDB_TYPE_BIGINT);
  AddResultColumn(info, "deletion_damage", DUCKDB_TYPE_VARCHAR);
  // IoTDB data: for a file without a valid tail (a crashed server's), what of it is read and
  // what is not (SQL has no warnings: this is where it is said); else NULL.
  AddResultColumn(info, "unsealed", DUCKDB_TYPE_VARCHAR);
  return absl::OkStatus();
}

absl::Status MetadataInit(duckdb_init_info info) {
  return InitRows<ColumnRow>(
      info, [](const BindData&, const TsFileReader& reader, size_t file, std::vector<ColumnRow>& rows) {
        for (const TableSchema* schema : reader.Tables()) {
          if (absl::Status s = CollectTable(reader, *schema, file, rows); !s.ok()) return s;
        }
        return CollectTree(reader, file, rows);
      },
      [](const BindData& bind, std::vector<ColumnRow>& rows) {
        for (const SkippedFile& skipped : bind.dataset->skipped_files()) {
          ColumnRow row;
          row.skipped_path = skipped.path;
          row.error = std::string(skipped.status.message());
          rows.push_back(std::move(row));
        }
      });
}

// The result's columns (MetadataBind).
constexpr int kColumns = 17;

// A skipped file's row: its path and error, NULL elsewhere.
void WriteSkippedFile(const ColumnRow& row, duckdb_vector* v, size_t r) {
  SetString(v[0], r, *row.skipped_path);
  for (int c = 1; c < 10; ++c) SetNull(v[c], r);
  SetString(v[10], r, *row.error);
  for (int c = 11; c < kColumns; ++c) SetNull(v[c], r);
}

// The IoTDB columns of file `f`'s rows (NULL unless the input is IoTDB data read as IoTDB answers).
void WriteIotdbColumns(const BindData& bind, size_t f, duckdb_vector* v, size_t r) {
  const std::optional<size_t> at = bind.iotdb != nullptr ? bind.layout_of[f] : std::nullopt;
  if (!at.has_value()) {
    for (int c = 12; c < kColumns; ++c) SetNull(v[c], r);
    return;
  }
  const iotdb::IotdbFile& file = bind.iotdb->layout().files[*at];
  const auto unsealed = bind.iotdb->unsealed_files().find(*at);
  WriteOptionalString(v[16], r, unsealed == bind.iotdb->unsealed_files().end()
                                    ? std::nullopt
                                    : std::optional<std::string>(unsealed->second.Summary()));
  WriteOptionalString(v[12], r, file.in_layout ? std::optional<std::string>(file.sequence ? "sequence" : "unsequence")
                                                : std::nullopt);
  WriteOptionalCount(v[13], r, file.in_layout ? std::optional<uint64_t>(static_cast<uint64_t>(file.name.version))
                                               : std::nullopt);
  const auto report = bind.iotdb->deletion_reports().find(*at);
  if (report == bind.iotdb->deletion_reports().end()) {
    SetNull(v[14], r);
    SetNull(v[15], r);
    return;
  }
  WriteOptionalCount(v[14], r, std::optional<uint64_t>(report->second.entries));
  WriteOptionalString(v[15], r, report->second.damage.ok() ? std::nullopt
                                                           : std::optional<std::string>(std::string(report->second.damage.message())));
}

absl::Status MetadataScan(duckdb_function_info info, duckdb_data_chunk output) {
  const auto* bind = static_cast<const BindData*>(duckdb_function_get_bind_data(info));
  duckdb_vector v[kColumns];
  for (idx_t i = 0; i < kColumns; ++i) v[i] = duckdb_data_chunk_get_vector(output, i);
  return EmitRows<ColumnRow>(info, output, [&](const ColumnRow& row, size_t r) {
    if (row.error) {
      WriteSkippedFile(row, v, r);
      return absl::OkStatus();
    }
    SetNull(v[10], r);
    const DatasetFile& file = bind->dataset->files()[row.file];
    WriteOptionalString(v[11], r, file.deletions ? std::optional<std::string>(file.deletions->path) : std::nullopt);
    WriteIotdbColumns(*bind, row.file, v, r);
    const std::string& path = file.path;
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

}  // namespace

bool RegisterTsfileMetadata(duckdb_connection connection) {
  return RegisterTableFunction(connection, NewDatasetTableFunction("tsfile_metadata"), BindCallback<MetadataBind>,
                               InitCallback<MetadataInit>, ScanCallback<MetadataScan>);
}

}  // namespace tsread::duckdb_ext
