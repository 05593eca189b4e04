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

bool DeviceIdPrecedes(const DeviceId& a, const DeviceId& b) {
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

absl::StatusOr<MergedScanner::Cursor> MergedScanner::OpenCursor() const {
  TSREAD_ASSIGN_OR_RETURN(RowFilter filter, RowFilter::Bind(row_predicates_, inner_->projection()));
  return Cursor(this, std::move(filter));
}

absl::Status MergedScanner::Scan(const std::function<absl::Status(const TableBatch&)>& consume) const {
  TSREAD_ASSIGN_OR_RETURN(Cursor cursor, OpenCursor());
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, cursor.Next());
    if (batch == nullptr) return absl::OkStatus();
    TSREAD_RETURN_IF_ERROR(consume(*batch));
  }
}

MergedScanner::Cursor::Cursor(const MergedScanner* scanner, RowFilter filter)
    : scanner_(scanner), filter_(std::move(filter)) {}

absl::StatusOr<TableBatch*> MergedScanner::Cursor::Next() {
  const Dataset& dataset = *scanner_->dataset_;
  while (true) {
    if (mode_ == Mode::kStream) {
      absl::StatusOr<TableBatch*> batch = cursor_->Next();
      if (!batch.ok()) return WithFileName(batch.status(), dataset.files()[stream_file_].path);
      if (*batch == nullptr) {
        mode_ = Mode::kNone;
        continue;
      }
      TSREAD_RETURN_IF_ERROR(filter_.Apply(**batch));
      if ((*batch)->num_rows() > 0) return *batch;
      continue;
    }
    if (mode_ == Mode::kMerged) {
      if (merged_next_ >= merged_.num_rows()) {
        mode_ = Mode::kNone;
        continue;
      }
      const size_t count = std::min(scanner_->batch_rows_, merged_.num_rows() - merged_next_);
      CopyRowsToBatch(merged_, merged_next_, count, out_);
      merged_next_ += count;
      TSREAD_RETURN_IF_ERROR(filter_.Apply(out_));
      if (out_.num_rows() > 0) return &out_;
      continue;
    }
    if (next_entry_ < entries_.size()) {
      TSREAD_RETURN_IF_ERROR(StartDevice());
      continue;
    }
    if (next_group_ < scanner_->groups_.size()) {
      TSREAD_RETURN_IF_ERROR(StartGroup());
      continue;
    }
    return nullptr;
  }
}

absl::Status MergedScanner::Cursor::StartGroup() {
  const MergeGroup& group = scanner_->groups_[next_group_++];
  // Every file of the group planned at once: a device's sources are read side by side.
  entries_.clear();
  next_entry_ = 0;
  plans_.clear();
  plans_.reserve(group.files.size());
  for (size_t rank = 0; rank < group.files.size(); ++rank) {
    TSREAD_ASSIGN_OR_RETURN(plans_.emplace_back(), scanner_->inner_->PlanFile(group.files[rank], 1));
    if (!plans_.back().has_value()) continue;
    const TableScanner& s = *plans_.back()->scanner;
    for (size_t i = 0; i < s.device_count(); ++i) entries_.push_back(Entry{&s.planned_device(i).id, rank, i});
  }
  std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    if (DeviceIdPrecedes(*a.id, *b.id)) return true;
    if (DeviceIdPrecedes(*b.id, *a.id)) return false;
    return a.rank < b.rank;
  });
  return absl::OkStatus();
}

absl::Status MergedScanner::Cursor::Open(const Entry& source) {
  const DatasetScanner::FileScan& plan = *plans_[source.rank];
  stream_file_ = scanner_->groups_[next_group_ - 1].files[source.rank];
  absl::Status status = plan.scanner->OpenCursorInto(ScanSplit{source.device, 1, 0, 0, 0, 0}, cursor_);
  return status.ok() ? status : WithFileName(status, scanner_->dataset_->files()[stream_file_].path);
}

absl::Status MergedScanner::Cursor::StartDevice() {
  const Dataset& dataset = *scanner_->dataset_;
  const std::vector<size_t>& group = scanner_->groups_[next_group_ - 1].files;
  const std::vector<ProjectedColumn>& read_columns = scanner_->inner_->projection();
  // The device's sources, lowest priority first.
  const size_t first = next_entry_;
  while (next_entry_ < entries_.size() && *entries_[next_entry_].id == *entries_[first].id) ++next_entry_;
  std::vector<SourceMask> masks(next_entry_ - first);
  bool stream = masks.size() == 1;
  for (size_t k = first; k < next_entry_; ++k) {
    const Entry& e = entries_[k];
    const DatasetScanner::FileScan& plan = *plans_[e.rank];
    const PlannedDevice& device = plan.scanner->planned_device(e.device);
    absl::StatusOr<std::vector<TimeseriesMetadata>> series = plan.reader->ReadTimeseries(device.location);
    if (!series.ok()) return WithFileName(series.status(), dataset.files()[group[e.rank]].path);
    if (scanner_->mask_) {
      absl::StatusOr<SourceMask> mask = scanner_->mask_(group[e.rank], device.id, *series, read_columns);
      if (!mask.ok()) return WithFileName(mask.status(), dataset.files()[group[e.rank]].path);
      masks[k - first] = std::move(*mask);
    }
    stream = stream && masks[k - first].empty() && TimeChunksIncrease(*series);
  }
  if (stream) {
    TSREAD_RETURN_IF_ERROR(Open(entries_[first]));
    mode_ = Mode::kStream;
    return absl::OkStatus();
  }
  // Each source's rows in memory, masked and cut into runs of increasing time; runs in priority order.
  std::vector<SourceRows> runs;
  for (size_t k = first; k < next_entry_; ++k) {
    TSREAD_RETURN_IF_ERROR(Open(entries_[k]));
    std::optional<SourceRows> rows;
    while (true) {
      absl::StatusOr<TableBatch*> batch = cursor_->Next();
      if (!batch.ok()) return WithFileName(batch.status(), dataset.files()[stream_file_].path);
      if (*batch == nullptr) break;
      if (!rows.has_value()) {
        rows = EmptyRowsLike(**batch, read_columns.size());
        out_.device = entries_[k].id;
        out_.projection = (*batch)->projection;
        out_.file = (*batch)->file;
      }
      AppendRows(**batch, *rows);
    }
    if (!rows.has_value()) continue;
    ApplyMask(masks[k - first], *rows);
    for (SourceRows& run : SplitRuns(std::move(*rows))) runs.push_back(std::move(run));
  }
  std::vector<const SourceRows*> order;
  for (const SourceRows& run : runs) order.push_back(&run);
  merged_ = MergeRuns(order);
  merged_next_ = 0;
  mode_ = Mode::kMerged;
  return absl::OkStatus();
}

}  // namespace tsread
