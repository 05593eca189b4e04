// NullableColumns (nullable_columns.h).
#include "nullable_columns.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>

#include "tsread/io/read_ahead.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::python {
namespace {

// Devices with more series than this are looked up through a map.
constexpr size_t kWideDevice = 32;

// Marks the columns of `fields` that some device of the file's table may lack values of;
// `left` counts those not marked yet.
absl::Status MarkFile(const TsFileReader& reader, const TableSchema& own, const std::string& table,
                      const std::vector<std::string>& fields, std::vector<bool>& nullable, size_t& left) {
  if (reader.metadata().FindIndex(table) == nullptr) return absl::OkStatus();  // a schema without data
  TSREAD_ASSIGN_OR_RETURN(DeviceIterator devices, reader.Devices(table));
  ReadAhead index_reads;  // the devices' metadata, in index order
  std::vector<TimeseriesMetadata> series;  // parsed in place device after device
  std::unordered_map<std::string_view, uint64_t> values;  // per measurement, for wide devices
  bool first = true;
  while (left > 0) {
    TSREAD_ASSIGN_OR_RETURN(const DeviceEntry* device, devices.Next());
    if (device == nullptr) break;
    TSREAD_RETURN_IF_ERROR(reader.ReadTimeseriesInto(device->location, series, &index_reads));
    uint64_t rows = 0;
    for (const TimeseriesMetadata& s : series) {
      if (s.is_time_column()) rows = s.statistics.count;
    }
    // The values of measurement `name` on the device: looked up in a map where the device has
    // many series, else by a walk of its few (a map per device was a tenth of reading a file of
    // small devices).
    const bool wide = series.size() > kWideDevice;
    if (wide) {
      values.clear();
      for (const TimeseriesMetadata& s : series) {
        if (!s.is_time_column()) values[s.measurement] += s.statistics.count;
      }
    }
    const auto values_of = [&](const std::string& name) -> uint64_t {
      if (wide) {
        auto it = values.find(name);
        return it == values.end() ? 0 : it->second;
      }
      uint64_t count = 0;
      for (const TimeseriesMetadata& s : series) {
        if (!s.is_time_column() && s.measurement == name) count += s.statistics.count;
      }
      return count;
    };
    if (rows == 0) continue;
    if (first) {
      // A column the file's table lacks reads as null in all of its rows.
      first = false;
      for (size_t j = 0; j < fields.size(); ++j) {
        if (!nullable[j] && !own.FindColumn(fields[j]).has_value()) {
          nullable[j] = true;
          --left;
        }
      }
    }
    for (size_t j = 0; j < fields.size(); ++j) {
      if (nullable[j]) continue;
      if (values_of(fields[j]) < rows) {
        nullable[j] = true;
        --left;
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> NullableColumns(const Dataset& dataset, const std::string& table) {
  TSREAD_ASSIGN_OR_RETURN(TableSchema schema, dataset.ReconciledSchema(table));
  std::vector<std::string> fields;
  for (const ColumnSchema& c : schema.columns) {
    if (c.category == ColumnCategory::kField) fields.push_back(c.name);
  }
  std::vector<bool> nullable(fields.size(), false);
  size_t left = fields.size();
  for (size_t f = 0; f < dataset.files().size() && left > 0; ++f) {
    const DatasetFile& file = dataset.files()[f];
    const TableSchema* own = file.FindTable(table);
    if (own == nullptr) continue;
    TSREAD_ASSIGN_OR_RETURN(std::shared_ptr<const TsFileReader> reader, dataset.OpenFile(f));
    TSREAD_RETURN_IF_ERROR(WithFileName(MarkFile(*reader, *own, table, fields, nullable, left), file.path));
  }
  std::vector<std::string> out;
  for (size_t j = 0; j < fields.size(); ++j) {
    if (nullable[j]) out.push_back(fields[j]);
  }
  return out;
}

}  // namespace tsread::python
