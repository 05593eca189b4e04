#include "tsread/aggregate/file_summary.h"

#include <algorithm>

#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

absl::StatusOr<TableSummary> SummarizeTable(const TsFileReader& reader, const TableSchema& schema) {
  TableSummary summary;
  summary.schema = &schema;
  if (reader.metadata().FindIndex(schema.name) == nullptr) return summary;  // a schema without data
  TSREAD_ASSIGN_OR_RETURN(DeviceIterator devices, reader.Devices(schema.name));
  ReadAhead index_reads;  // the devices' metadata, in index order
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(const DeviceEntry* device, devices.Next());
    if (device == nullptr) break;
    ++summary.devices;
    // Rows = the time column's count (§12); the time column "" is the device's first series.
    TSREAD_ASSIGN_OR_RETURN(std::optional<TimeseriesMetadata> time,
                            reader.FindTimeseries(device->location, "", &index_reads));
    if (!time.has_value() || !time->is_time_column() || time->statistics.count == 0) continue;
    const Statistics& s = time->statistics;
    summary.start_time = summary.rows == 0 ? s.start_time : std::min(summary.start_time, s.start_time);
    summary.end_time = summary.rows == 0 ? s.end_time : std::max(summary.end_time, s.end_time);
    summary.rows += s.count;
  }
  return summary;
}

absl::Status AddTreeIndex(const TsFileReader& reader, const std::string& index_name, TreeSummary& tree) {
  TSREAD_ASSIGN_OR_RETURN(DeviceIterator devices, reader.Devices(index_name));
  ReadAhead index_reads;  // the devices' metadata, in index order
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(const DeviceEntry* device, devices.Next());
    if (device == nullptr) break;
    ++tree.devices;
    TSREAD_RETURN_IF_ERROR(reader.ForEachTimeseries(
        device->location,
        [&](TimeseriesMetadata&& tsm) {
          if (!tsm.is_time_column()) {
            ++tree.series;
            tree.points += tsm.statistics.count;
          }
          return absl::OkStatus();
        },
        &index_reads));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<FileSummary> SummarizeFile(const TsFileReader& reader) {
  FileSummary summary;
  summary.version = reader.version();
  for (const TableSchema* schema : reader.Tables()) {
    TSREAD_ASSIGN_OR_RETURN(TableSummary table, SummarizeTable(reader, *schema));
    summary.tables.push_back(table);
  }
  const std::vector<std::string> tree_indexes = reader.TreeIndexNames();
  if (!tree_indexes.empty()) {
    TreeSummary tree;
    for (const std::string& name : tree_indexes) TSREAD_RETURN_IF_ERROR(AddTreeIndex(reader, name, tree));
    summary.tree = tree;
  }
  return summary;
}

}  // namespace tsread
