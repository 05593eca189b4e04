// Aggregates over IoTDB's merged rows (iotdb_aggregate.h).
#include "tsread/aggregate/iotdb_aggregate.h"

#include <cstdint>
#include <map>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/aggregate/aggregate_shape.h"
#include "tsread/aggregate/group_builder.h"
#include "tsread/io/status_macros.h"

namespace tsread {

absl::StatusOr<TableAggregate> AggregateIotdb(const iotdb::IotdbDataset& dataset, const AggregateOptions& options) {
  DatasetScanOptions scan;
  scan.table = options.table;
  scan.time_range = options.time_range;
  scan.tag_predicates = options.tag_predicates;
  // The table's schema first (which FIELD columns "every column" is), then the scan of those.
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<MergedScanner> probe, dataset.ScanTable(scan));
  TSREAD_ASSIGN_OR_RETURN(TableAggregate out, AggregateShape(probe->schema(), options));
  scan.table = out.table;
  for (const ColumnSchema& c : out.columns) scan.columns.push_back(c.name);
  // Without FIELD columns a TAG column stands in (rows are counted by the time column; it costs
  // no chunk).
  if (scan.columns.empty() && !out.tag_columns.empty()) scan.columns.push_back(out.tag_columns[0]);
  GroupBuilder builder(out, options);
  // The builder keeps per-file state (the reader its exactness checks read headers with, the
  // file's own schema): switched to a file before statistics of its rows are offered, and to the
  // batch's file's schema before rows are added. Files stay open while their group is read.
  const Dataset* files = nullptr;
  std::map<size_t, std::shared_ptr<const TsFileReader>> readers;
  size_t builder_file = SIZE_MAX;
  absl::Status switch_failed;
  MergedStatistics statistics;
  statistics.filter = &builder;
  statistics.before_file = [&](size_t f) {
    if (f == builder_file) return;
    auto it = readers.find(f);
    if (it == readers.end()) {
      absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = files->OpenFile(f);
      if (!reader.ok()) {
        switch_failed = reader.status();
        return;
      }
      it = readers.emplace(f, std::move(*reader)).first;
    }
    const TableSchema* own = files->files()[f].FindTable(out.table);
    if (own == nullptr) return;
    builder.StartFile(*it->second, *own);
    builder_file = f;
  };
  // Value predicates decide which merged rows count: no statistics then (as Aggregate); those that
  // name devices by tags are tag predicates.
  SplitConditions(out, options.value_predicates, scan.tag_predicates, scan.value_predicates);
  if (!scan.value_predicates.empty()) statistics = MergedStatistics{};
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<MergedScanner> scanner, dataset.ScanTable(scan, statistics));
  files = &scanner->inner().dataset();
  // Each file's own schema of the table: where a device's TAG values are in its id.
  std::map<std::string, const TableSchema*, std::less<>> own;
  for (const DatasetFile& f : files->files()) {
    if (const TableSchema* t = f.FindTable(out.table)) own.emplace(f.path, t);
  }
  const DeviceId* device = nullptr;
  TSREAD_RETURN_IF_ERROR(scanner->Scan([&](const TableBatch& batch) {
    TSREAD_RETURN_IF_ERROR(switch_failed);
    if (batch.device != device) {
      const auto it = own.find(*batch.file);
      if (it == own.end()) return absl::InternalError(absl::StrCat(*batch.file, ": rows of a file without the table"));
      builder.StartMergedRows(*it->second);
      builder_file = SIZE_MAX;
      device = batch.device;
    }
    builder.AddBatch(batch);
    return absl::OkStatus();
  }));
  TSREAD_RETURN_IF_ERROR(switch_failed);
  out.work = builder.work();
  out.groups = builder.TakeGroups();
  if (options.fill_empty_buckets) TSREAD_RETURN_IF_ERROR(FillEmptyBuckets(options, out));
  return out;
}

absl::StatusOr<TreeAggregate> AggregateIotdbTree(const iotdb::IotdbDataset& dataset,
                                                 const TreeAggregateOptions& options) {
  std::map<std::pair<std::string, std::string>, ColumnAggregate> merged;
  iotdb::TreeScanOptions scan;
  scan.select_device = [&](std::string_view device) { return TreeDeviceSelected(options.devices, device); };
  scan.measurements.assign(options.measurements.begin(), options.measurements.end());
  scan.time_range = options.time_range;
  TreeAggregate out;
  TSREAD_RETURN_IF_ERROR(dataset.ScanTree(scan, [&](std::string_view device, std::string_view measurement,
                                                    const std::vector<int64_t>& times, const ColumnVector& values,
                                                    size_t begin, size_t end) {
    auto it = merged.try_emplace({std::string(device), std::string(measurement)}, values.type).first;
    if (it->second.type() != values.type) {
      return absl::InvalidArgumentError(absl::StrCat("device \"", std::string(device), "\", measurement \"",
                                                     std::string(measurement), "\" has two types in the input"));
    }
    it->second.AddRows(values, times.data(), begin, end);
    ++out.work.pages_decoded;
    return absl::OkStatus();
  }));
  for (auto& [key, values] : merged) {
    if (values.count() == 0) continue;
    out.series.push_back(SeriesAggregate{key.first, key.second, std::move(values)});
  }
  return out;
}

}  // namespace tsread
