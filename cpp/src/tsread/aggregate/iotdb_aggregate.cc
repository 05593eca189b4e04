// Aggregates over IoTDB's merged rows (iotdb_aggregate.h).
#include "tsread/aggregate/iotdb_aggregate.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tsread/aggregate/aggregate_shape.h"
#include "tsread/aggregate/group_builder.h"
#include "tsread/aggregate/group_merge.h"
#include "tsread/common/run_in_order.h"
#include "tsread/io/status_macros.h"

namespace tsread {

namespace {

// Each file's own schema of the table, by path: where a device's TAG values are in its id.
using OwnSchemas = std::map<std::string, const TableSchema*, std::less<>>;

// One share of the merged rows aggregated by a builder of its own. The builder keeps per-file state
// (the reader its exactness checks read headers with, the file's own schema): switched to a file
// before statistics of its rows are offered, and to the batch's file's schema before rows are
// added. Files stay open while the share is read.
class ShareAggregator {
 public:
  // `statistics`: whether streamed devices may be answered from statistics (not with value
  // predicates: those decide which merged rows count).
  ShareAggregator(const TableAggregate& shape, const AggregateOptions& options, const Dataset& files,
                  const OwnSchemas& own, bool statistics)
      : builder_(shape, options), files_(&files), own_(&own), table_(shape.table) {
    if (!statistics) return;
    statistics_.filter = &builder_;
    statistics_.before_file = [this](size_t f) { SwitchToFile(f); };
  }
  ShareAggregator(const ShareAggregator&) = delete;
  ShareAggregator& operator=(const ShareAggregator&) = delete;

  // What the share's cursor asks (MergedScanner::OpenCursor).
  const MergedStatistics* statistics() const { return &statistics_; }

  absl::Status Add(const TableBatch& batch) {
    TSREAD_RETURN_IF_ERROR(switch_failed_);
    if (batch.device != device_) {
      const auto it = own_->find(*batch.file);
      if (it == own_->end()) return absl::InternalError(absl::StrCat(*batch.file, ": rows of a file without the table"));
      builder_.StartMergedRows(*it->second);
      builder_file_ = SIZE_MAX;
      device_ = batch.device;
    }
    builder_.AddBatch(batch);
    return absl::OkStatus();
  }

  absl::StatusOr<BuilderOutput> Finish() {
    TSREAD_RETURN_IF_ERROR(switch_failed_);
    return BuilderOutput{builder_.TakeGroups(), builder_.work()};
  }

 private:
  void SwitchToFile(size_t f) {
    if (f == builder_file_) return;
    auto it = readers_.find(f);
    if (it == readers_.end()) {
      absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = files_->OpenFile(f);
      if (!reader.ok()) {
        switch_failed_ = reader.status();
        return;
      }
      it = readers_.emplace(f, std::move(*reader)).first;
    }
    const TableSchema* own = files_->files()[f].FindTable(table_);
    if (own == nullptr) return;
    builder_.StartFile(*it->second, *own);
    builder_file_ = f;
  }

  GroupBuilder builder_;
  const Dataset* files_;
  const OwnSchemas* own_;
  std::string table_;
  MergedStatistics statistics_;
  std::map<size_t, std::shared_ptr<const TsFileReader>> readers_;
  size_t builder_file_ = SIZE_MAX;
  const DeviceId* device_ = nullptr;
  absl::Status switch_failed_;
};

// Whether a device of TAG values `a` comes before one of `b` in a merged scan: value by value, a
// null first, then byte order, as DeviceIdPrecedes orders the ids (dataset/merged_scan.h).
bool TagsPrecede(const std::vector<std::optional<std::string>>& a, const std::vector<std::optional<std::string>>& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

// Share `part` of the merged rows, aggregated.
absl::StatusOr<BuilderOutput> AggregateShare(const MergedScanner& scanner, const MergedPart& part,
                                             const TableAggregate& shape, const AggregateOptions& options,
                                             const OwnSchemas& own, bool statistics) {
  ShareAggregator aggregator(shape, options, scanner.inner().dataset(), own, statistics);
  TSREAD_ASSIGN_OR_RETURN(MergedScanner::Cursor cursor, scanner.OpenCursor(part, nullptr, aggregator.statistics()));
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, cursor.Next());
    if (batch == nullptr) break;
    TSREAD_RETURN_IF_ERROR(aggregator.Add(*batch));
  }
  return aggregator.Finish();
}

}  // namespace

absl::StatusOr<TableAggregate> AggregateIotdb(const iotdb::IotdbDataset& dataset, const AggregateOptions& options,
                                              int threads) {
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
  // Value predicates decide which merged rows count: no statistics then (as Aggregate); those that
  // name devices by tags are tag predicates.
  SplitConditions(out, options.value_predicates, scan.tag_predicates, scan.value_predicates);
  const bool statistics = scan.value_predicates.empty();
  // Each share's cursor brings its own statistics filter (its builder).
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<MergedScanner> scanner, dataset.ScanTable(scan));
  OwnSchemas own;
  for (const DatasetFile& f : scanner->inner().dataset().files()) {
    if (const TableSchema* t = f.FindTable(out.table)) own.emplace(f.path, t);
  }
  // One thread: the whole scan, one builder. Several: each time partition's devices in `threads`
  // shares, a builder each, merged in the scan's order.
  std::vector<MergedPart> shares;
  const size_t parts = static_cast<size_t>(std::max(threads, 1));
  if (parts == 1) {
    shares.push_back(MergedPart{});
  } else {
    for (size_t g = 0; g < scanner->groups().size(); ++g) {
      for (size_t p = 0; p < parts; ++p) shares.push_back(MergedPart{p, parts, g, g + 1});
    }
  }
  std::vector<BuilderOutput> outputs(shares.size());
  TSREAD_RETURN_IF_ERROR(RunInOrder(shares.size(), threads, [&](size_t i, size_t) -> absl::Status {
    TSREAD_ASSIGN_OR_RETURN(outputs[i], AggregateShare(*scanner, shares[i], out, options, own, statistics));
    return absl::OkStatus();
  }));
  MergeBuilderOutputs(outputs, out);
  // Devices in the scan's order whatever the threads: a builder meets a device answered from
  // statistics when its file's cursor passes it, which may be before a merged device read earlier.
  std::stable_sort(out.groups.begin(), out.groups.end(), [](const GroupAggregate& a, const GroupAggregate& b) {
    return TagsPrecede(a.tags, b.tags);
  });
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
