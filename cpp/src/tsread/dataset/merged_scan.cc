// A scan of overlapping files merged by priority (merged_scan.h).
#include "tsread/dataset/merged_scan.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "tsread/io/status_macros.h"
#include "tsread/read/projection.h"

namespace tsread {
namespace {

// Rows per merged batch when the scan sets no batch size.
constexpr size_t kMergedBatchRows = 65536;

// Whether every comparison of `expr` is on a TAG column: such a condition is the device's, which
// the merge does not change, so the sources' scans can decide it (and skip devices unread).
bool OnTagsOnly(const PredicateExpr& expr, const TableSchema& schema) {
  bool tags_only = true;
  ForEachComparison(expr, [&](const ValuePredicate& p) {
    const std::optional<size_t> index = schema.FindColumn(p.column);
    tags_only = tags_only && index.has_value() && schema.columns[*index].category == ColumnCategory::kTag;
  });
  return tags_only;
}

// Whether the time column's chunks follow each other in time (each starts after every earlier one
// ends): the file's rows of the device then come out in time order, each time once.
bool TimeChunksIncrease(const std::vector<TimeseriesMetadata>& series) {
  for (const TimeseriesMetadata& s : series) {
    if (!s.is_time_column() && series.size() > 1) continue;  // aligned: the time column decides
    bool first = true;
    int64_t last_end = 0;
    for (const ChunkMetadata& chunk : s.chunks) {
      if (chunk.statistics.count == 0) continue;
      if (!first && chunk.statistics.start_time <= last_end) return false;
      last_end = first ? chunk.statistics.end_time : std::max(last_end, chunk.statistics.end_time);
      first = false;
    }
  }
  return true;
}

}  // namespace

bool DeviceIdLess(const DeviceId& a, const DeviceId& b) {
  const size_t n = std::min(a.segment_count(), b.segment_count());
  for (size_t i = 0; i < n; ++i) {
    const std::optional<std::string_view> x = a.segment(i), y = b.segment(i);
    if (x == y) continue;
    if (!x.has_value()) return true;
    if (!y.has_value()) return false;
    return *x < *y;
  }
  return a.segment_count() < b.segment_count();
}

// One file's part of a device's merge.
struct MergedScanner::Source {
  size_t file = 0;  // in the dataset
  const DatasetScanner::FileScan* scan = nullptr;
  size_t device = 0;  // planned device index in scan->scanner
};

absl::StatusOr<std::unique_ptr<MergedScanner>> MergedScanner::Create(const Dataset& dataset, DatasetScanOptions options,
                                                                     std::vector<MergeGroup> groups, SourceMaskFn mask) {
  TSREAD_ASSIGN_OR_RETURN(options.table, dataset.TableToRead(options.table));
  TSREAD_ASSIGN_OR_RETURN(TableSchema schema, dataset.ReconciledSchema(options.table));
  TSREAD_ASSIGN_OR_RETURN(std::vector<ProjectedColumn> wanted, ResolveProjection(schema, options.columns));
  auto scanner = std::unique_ptr<MergedScanner>(new MergedScanner());
  // The sources' scans read the wanted columns and then those the row predicates need.
  std::vector<std::string> read_columns;
  for (const ProjectedColumn& c : wanted) read_columns.push_back(c.name);
  std::vector<PredicateExpr> pushed;
  for (PredicateExpr& expr : options.value_predicates) {
    if (OnTagsOnly(expr, schema)) {
      pushed.push_back(std::move(expr));
      continue;
    }
    ForEachComparison(expr, [&](const ValuePredicate& p) {
      if (std::find(read_columns.begin(), read_columns.end(), p.column) == read_columns.end()) {
        read_columns.push_back(p.column);
      }
    });
    scanner->row_predicates_.push_back(std::move(expr));
  }
  options.value_predicates = std::move(pushed);
  options.columns = read_columns;
  options.num_threads = 1;
  options.ordered = true;
  options.statistics_filter = nullptr;
  scanner->batch_rows_ = options.batch_size > 0 ? options.batch_size : kMergedBatchRows;
  TSREAD_ASSIGN_OR_RETURN(scanner->inner_, DatasetScanner::Create(dataset, std::move(options)));
  // Bind once now, so that a bad predicate fails here rather than at the first merged device.
  TSREAD_RETURN_IF_ERROR(RowFilter::Bind(scanner->row_predicates_, scanner->inner_->projection()).status());
  scanner->projection_.assign(scanner->inner_->projection().begin(),
                              scanner->inner_->projection().begin() + static_cast<std::ptrdiff_t>(wanted.size()));
  scanner->dataset_ = &dataset;
  scanner->groups_ = std::move(groups);
  scanner->mask_ = std::move(mask);
  return scanner;
}

absl::Status MergedScanner::Scan(const std::function<absl::Status(const TableBatch&)>& consume) const {
  TSREAD_ASSIGN_OR_RETURN(RowFilter filter, RowFilter::Bind(row_predicates_, inner_->projection()));
  for (const MergeGroup& group : groups_) TSREAD_RETURN_IF_ERROR(ScanGroup(group, consume, filter));
  return absl::OkStatus();
}

absl::Status MergedScanner::ScanGroup(const MergeGroup& group,
                                      const std::function<absl::Status(const TableBatch&)>& consume,
                                      RowFilter& filter) const {
  // Every file of the group planned at once: a device's sources are read side by side.
  std::vector<std::optional<DatasetScanner::FileScan>> plans;
  plans.reserve(group.files.size());
  struct Entry {
    const DeviceId* id;
    Source source;
    size_t rank;  // place in the group: priority
  };
  std::vector<Entry> entries;
  for (size_t rank = 0; rank < group.files.size(); ++rank) {
    const size_t file = group.files[rank];
    TSREAD_ASSIGN_OR_RETURN(plans.emplace_back(), inner_->PlanFile(file, 1));
    if (!plans.back().has_value()) continue;
    const TableScanner& s = *plans.back()->scanner;
    for (size_t i = 0; i < s.device_count(); ++i) {
      entries.push_back(Entry{&s.planned_device(i).id, Source{file, &*plans.back(), i}, rank});
    }
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (DeviceIdLess(*a.id, *b.id)) return true;
    if (DeviceIdLess(*b.id, *a.id)) return false;
    return a.rank < b.rank;
  });
  std::vector<Source> sources;
  for (size_t e = 0; e < entries.size();) {
    sources.clear();
    size_t end = e;
    while (end < entries.size() && *entries[end].id == *entries[e].id) sources.push_back(entries[end++].source);
    TSREAD_RETURN_IF_ERROR(ScanDevice(sources, consume, filter));
    e = end;
  }
  return absl::OkStatus();
}

absl::Status MergedScanner::ScanDevice(std::vector<Source>& sources,
                                       const std::function<absl::Status(const TableBatch&)>& consume,
                                       RowFilter& filter) const {
  const std::vector<ProjectedColumn>& read_columns = inner_->projection();
  std::vector<SourceMask> masks(sources.size());
  bool plain = sources.size() == 1;
  for (size_t k = 0; k < sources.size(); ++k) {
    const Source& s = sources[k];
    const PlannedDevice& device = s.scan->scanner->planned_device(s.device);
    absl::StatusOr<std::vector<TimeseriesMetadata>> series = s.scan->reader->ReadTimeseries(device.location);
    if (!series.ok()) return WithFileName(series.status(), dataset_->files()[s.file].path);
    if (mask_) {
      absl::StatusOr<SourceMask> mask = mask_(s.file, device.id, *series, read_columns);
      if (!mask.ok()) return WithFileName(mask.status(), dataset_->files()[s.file].path);
      masks[k] = std::move(*mask);
    }
    plain = plain && masks[k].empty() && TimeChunksIncrease(*series);
  }
  std::optional<TableScanner::Cursor> cursor;
  auto open = [&](const Source& s) -> absl::Status {
    absl::Status status = s.scan->scanner->OpenCursorInto(ScanSplit{s.device, 1, 0, 0, 0, 0}, cursor);
    return status.ok() ? status : WithFileName(status, dataset_->files()[s.file].path);
  };
  if (plain) {
    TSREAD_RETURN_IF_ERROR(open(sources[0]));
    while (true) {
      absl::StatusOr<TableBatch*> batch = cursor->Next();
      if (!batch.ok()) return WithFileName(batch.status(), dataset_->files()[sources[0].file].path);
      if (*batch == nullptr) return absl::OkStatus();
      TSREAD_RETURN_IF_ERROR(filter.Apply(**batch));
      if ((*batch)->num_rows() > 0) TSREAD_RETURN_IF_ERROR(consume(**batch));
    }
  }
  // Each source's rows in memory, masked and cut into runs of increasing time; runs in priority order.
  std::vector<SourceRows> runs;
  TableBatch out;
  for (size_t k = 0; k < sources.size(); ++k) {
    TSREAD_RETURN_IF_ERROR(open(sources[k]));
    std::optional<SourceRows> rows;
    while (true) {
      absl::StatusOr<TableBatch*> batch = cursor->Next();
      if (!batch.ok()) return WithFileName(batch.status(), dataset_->files()[sources[k].file].path);
      if (*batch == nullptr) break;
      if (!rows.has_value()) {
        rows = EmptyRowsLike(**batch, read_columns.size());
        out.device = (*batch)->device == nullptr ? nullptr : &sources[k].scan->scanner->planned_device(sources[k].device).id;
        out.projection = (*batch)->projection;
        out.file = (*batch)->file;
      }
      AppendRows(**batch, *rows);
    }
    if (!rows.has_value()) continue;
    ApplyMask(masks[k], *rows);
    for (SourceRows& run : SplitRuns(std::move(*rows))) runs.push_back(std::move(run));
  }
  if (runs.empty()) return absl::OkStatus();
  std::vector<const SourceRows*> order;
  for (const SourceRows& run : runs) order.push_back(&run);
  const SourceRows merged = MergeRuns(order);
  for (size_t begin = 0; begin < merged.num_rows(); begin += batch_rows_) {
    CopyRowsToBatch(merged, begin, std::min(batch_rows_, merged.num_rows() - begin), out);
    TSREAD_RETURN_IF_ERROR(filter.Apply(out));
    if (out.num_rows() > 0) TSREAD_RETURN_IF_ERROR(consume(out));
  }
  return absl::OkStatus();
}

}  // namespace tsread
