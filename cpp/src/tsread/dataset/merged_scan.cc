// A scan of overlapping files merged by priority (merged_scan.h).
#include "tsread/dataset/merged_scan.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/dataset/column_cast.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/page_times.h"
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

// Whether the device's time column's chunks follow each other in time (ChunksInTimeOrder): the
// file's rows of the device then come out in time order, each time once.
bool TimeChunksIncrease(const std::vector<TimeseriesMetadata>& series) {
  for (const TimeseriesMetadata& s : series) {
    if (!s.is_time_column() && series.size() > 1) continue;  // aligned: the time column decides
    if (!ChunksInTimeOrder(s)) return false;
  }
  return true;
}

// The earliest and latest time of a device's rows in a file (its time column's statistics, or for
// a non-aligned device its series'); nullopt without rows.
std::optional<std::pair<int64_t, int64_t>> TimeSpan(const std::vector<TimeseriesMetadata>& series) {
  std::optional<std::pair<int64_t, int64_t>> span;
  for (const TimeseriesMetadata& s : series) {
    if (series.size() > 1 && !s.is_time_column()) continue;
    if (s.statistics.count == 0) continue;
    const std::pair<int64_t, int64_t> mine{s.statistics.start_time, s.statistics.end_time};
    span = span ? std::make_pair(std::min(span->first, mine.first), std::max(span->second, mine.second)) : mine;
  }
  return span;
}

// A device's series in a file into `out` (its objects reused): all of them, or only its time
// column ("") and — for a non-aligned device, which has none — its series.
absl::Status SeriesOf(const TsFileReader& reader, const DeviceLocation& location, bool all, ReadAhead& ahead,
                      std::vector<TimeseriesMetadata>& out) {
  if (all) return reader.ReadTimeseriesInto(location, out, &ahead);
  const TsFileReader::MeasurementFilter time_only = [](std::string_view measurement) { return measurement.empty(); };
  TSREAD_RETURN_IF_ERROR(reader.ReadTimeseriesInto(location, out, &ahead, &time_only));
  if (out.empty()) return reader.ReadTimeseriesInto(location, out, &ahead);  // no time column: a non-aligned device
  return absl::OkStatus();
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

namespace {

// The read columns `file` stores with another type than `columns` have (a unified type).
std::vector<size_t> RecastColumns(const DatasetFile& file, const std::string& table,
                                  const std::vector<ProjectedColumn>& columns) {
  std::vector<size_t> out;
  const TableSchema* schema = file.FindTable(table);
  if (schema == nullptr) return out;
  for (size_t j = 0; j < columns.size(); ++j) {
    const std::optional<size_t> at = schema->FindColumn(columns[j].name);
    if (at.has_value() && columns[j].category == ColumnCategory::kField &&
        schema->columns[*at].data_type != columns[j].data_type) {
      out.push_back(j);
    }
  }
  return out;
}

}  // namespace

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

absl::StatusOr<MergedScanner::Cursor> MergedScanner::OpenCursor(const MergedPart& part, SharedGroupPlans* shared,
                                                                 const MergedStatistics* statistics) const {
  if (part.part >= part.parts || part.first_group > std::min(part.end_group, groups_.size())) {
    return absl::InvalidArgumentError(absl::StrCat("merged scan part ", part.part, " of ", part.parts, " in groups ",
                                                   part.first_group, " to ", part.end_group, " does not exist"));
  }
  if (shared != nullptr && statistics != nullptr) {
    return absl::InvalidArgumentError("a merged scan with a statistics filter plans each part's files itself");
  }
  TSREAD_ASSIGN_OR_RETURN(RowFilter filter, RowFilter::Bind(row_predicates_, inner_->projection()));
  return Cursor(this, std::move(filter), part, shared, statistics);
}

absl::Status MergedScanner::Scan(const std::function<absl::Status(TableBatch&)>& consume) const {
  TSREAD_ASSIGN_OR_RETURN(Cursor cursor, OpenCursor());
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, cursor.Next());
    if (batch == nullptr) return absl::OkStatus();
    TSREAD_RETURN_IF_ERROR(consume(*batch));
  }
}

MergedScanner::Cursor::Cursor(const MergedScanner* scanner, RowFilter filter, const MergedPart& part,
                              SharedGroupPlans* shared, const MergedStatistics* statistics)
    : scanner_(scanner),
      filter_(std::move(filter)),
      part_(part.part),
      parts_(part.parts),
      shared_(shared),
      statistics_(statistics),
      next_group_(part.first_group),
      end_group_(std::min(part.end_group, scanner->groups_.size())) {}

absl::StatusOr<TableBatch*> MergedScanner::Cursor::Next() {
  while (true) {
    if (mode_ == Mode::kStream) {
      if (stream_next_ >= stream_.size()) {
        mode_ = Mode::kNone;
        continue;
      }
      TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, DeviceBatch(stream_[stream_next_].first, stream_[stream_next_].second));
      if (batch == nullptr) {
        ++stream_next_;
        continue;
      }
      TSREAD_RETURN_IF_ERROR(filter_.Apply(*batch));
      if (batch->num_rows() > 0) return batch;
      continue;
    }
    if (mode_ == Mode::kMerged) {
      if (merged_next_ == SIZE_MAX || merged_next_ >= merged_.num_rows()) {
        mode_ = Mode::kNone;
        continue;
      }
      const size_t count = std::min(scanner_->batch_rows_, merged_.num_rows() - merged_next_);
      if (merged_next_ == 0 && count == merged_.num_rows()) {
        MoveRowsToBatch(merged_, out_);  // the whole device in one batch: no copy
        merged_next_ = SIZE_MAX;
      } else {
        CopyRowsToBatch(merged_, merged_next_, count, out_);
        merged_next_ += count;
      }
      TSREAD_RETURN_IF_ERROR(filter_.Apply(out_));
      if (out_.num_rows() > 0) return &out_;
      continue;
    }
    if (next_device_ < devices_.size()) {
      TSREAD_RETURN_IF_ERROR(StartDevice());
      continue;
    }
    if (next_group_ < end_group_) {
      TSREAD_RETURN_IF_ERROR(StartGroup());
      continue;
    }
    LeaveGroup();
    return nullptr;
  }
}

void MergedScanner::Cursor::LeaveGroup() {
  devices_.clear();
  files_.clear();  // the file cursors, before the scanners they read
  if (shared_ != nullptr && group_.has_value()) shared_->Release(*group_);
  group_.reset();
}

absl::Status MergedScanner::Cursor::StartGroup() {
  LeaveGroup();
  const size_t group_index = next_group_++;
  group_ = group_index;
  const MergeGroup& group = scanner_->groups_[group_index];
  const Dataset& dataset = *scanner_->dataset_;
  // Every file of the group planned at once: a device's sources are read side by side.
  entries_.clear();
  next_device_ = 0;
  const size_t count = group.files.size();
  files_.resize(count);
  // Parts sharing plans start at different files: they plan different ones side by side.
  const size_t start = shared_ != nullptr ? count * part_ / parts_ : 0;
  for (size_t i = 0; i < count; ++i) {
    const size_t rank = (start + i) % count;
    auto read = std::make_unique<FileRead>();
    read->file = group.files[rank];
    read->masked = group.masked.empty() || group.masked[rank];
    if (shared_ != nullptr) {
      TSREAD_ASSIGN_OR_RETURN(read->plan, shared_->Plan(group_index, rank));
    } else {
      if (statistics_ != nullptr && statistics_->filter != nullptr) {
        read->gate = std::make_unique<GatedFilter>(statistics_, read->file);
      }
      TSREAD_ASSIGN_OR_RETURN(read->own_plan, scanner_->inner_->PlanFile(read->file, 1, read->gate.get()));
      if (read->own_plan.has_value()) read->plan = &*read->own_plan;
    }
    read->recast = RecastColumns(dataset.files()[read->file], scanner_->inner_->options().table,
                                 scanner_->inner_->projection());
    if (read->plan != nullptr) {
      const TableScanner& s = *read->plan->scanner;
      for (size_t d = 0; d < s.device_count(); ++d) {
        entries_.push_back(Entry{&s.planned_device(d).id, rank, d});
        if (d > 0 && !DeviceIdPrecedes(s.planned_device(d - 1).id, s.planned_device(d).id)) read->in_order = false;
      }
    }
    files_[rank] = std::move(read);
  }
  SortEntries();
  KeepPart();
  TSREAD_RETURN_IF_ERROR(OpenFileCursors());
  return PlanDevices();
}

void MergedScanner::Cursor::SortEntries() {
  auto before = [](const Entry& a, const Entry& b) {
    if (DeviceIdPrecedes(*a.id, *b.id)) return true;
    if (DeviceIdPrecedes(*b.id, *a.id)) return false;
    return a.rank < b.rank;
  };
  // Each in-order file's devices are sorted already: merging them takes a few comparisons per
  // device where sorting all took a dozen (a group may hold thousands of files' devices).
  if (!std::all_of(files_.begin(), files_.end(), [](const auto& f) { return f->in_order; })) {
    std::stable_sort(entries_.begin(), entries_.end(), before);
    return;
  }
  std::vector<Entry> merged;
  merged.reserve(entries_.size());
  // Runs of entries_ by file (each file's devices were appended together, in order).
  std::vector<std::pair<size_t, size_t>> heads;  // [next, end) per file
  for (size_t i = 0; i < entries_.size();) {
    size_t j = i;
    while (j < entries_.size() && entries_[j].rank == entries_[i].rank) ++j;
    heads.emplace_back(i, j);
    i = j;
  }
  auto later = [&](const std::pair<size_t, size_t>& a, const std::pair<size_t, size_t>& b) {
    return before(entries_[b.first], entries_[a.first]);
  };
  std::make_heap(heads.begin(), heads.end(), later);
  while (!heads.empty()) {
    std::pop_heap(heads.begin(), heads.end(), later);
    std::pair<size_t, size_t>& top = heads.back();
    merged.push_back(entries_[top.first++]);
    if (top.first == top.second) {
      heads.pop_back();
    } else {
      std::push_heap(heads.begin(), heads.end(), later);
    }
  }
  entries_ = std::move(merged);
}

void MergedScanner::Cursor::KeepPart() {
  if (parts_ == 1) return;
  // The entries of device d (its place among the group's devices) stay when d falls in
  // [devices * part / parts, devices * (part + 1) / parts).
  size_t devices = 0;
  for (size_t k = 0; k < entries_.size(); ++k) {
    if (k == 0 || *entries_[k].id != *entries_[k - 1].id) ++devices;
  }
  const size_t lo = devices * part_ / parts_, hi = devices * (part_ + 1) / parts_;
  size_t device = 0, kept = 0;
  for (size_t k = 0; k < entries_.size(); ++k) {
    if (k > 0 && *entries_[k].id != *entries_[k - 1].id) ++device;
    if (device >= lo && device < hi) entries_[kept++] = entries_[k];
  }
  entries_.resize(kept);
}

absl::Status MergedScanner::Cursor::OpenFileCursors() {
  // An in-order file's kept devices are consecutive in it: one cursor reads them in turn.
  std::vector<std::pair<size_t, size_t>> span(files_.size(), {SIZE_MAX, 0});  // [first, last] kept device
  for (const Entry& e : entries_) {
    span[e.rank] = {std::min(span[e.rank].first, e.device), std::max(span[e.rank].second, e.device)};
  }
  for (size_t rank = 0; rank < files_.size(); ++rank) {
    FileRead& read = *files_[rank];
    if (!read.in_order || span[rank].first == SIZE_MAX) continue;
    const size_t count = span[rank].second - span[rank].first + 1;
    absl::Status opened = read.plan->scanner->OpenCursorInto(ScanSplit{span[rank].first, count, 0, 0, 0, 0}, read.cursor);
    if (!opened.ok()) return WithFileName(opened, scanner_->dataset_->files()[read.file].path);
  }
  return absl::OkStatus();
}

absl::Status MergedScanner::Cursor::PlanDevices() {
  // Decided for every device before any is read: a file's cursor may run into its next device
  // while the one before is read, and its statistics must then already be open or closed.
  for (size_t first = 0; first < entries_.size();) {
    size_t end = first;
    while (end < entries_.size() && *entries_[end].id == *entries_[first].id) ++end;
    TSREAD_ASSIGN_OR_RETURN(DevicePlan plan, PlanDevice(first, end));
    if (plan.stream) {
      for (const auto& [rank, device] : plan.order) {
        if (files_[rank]->gate) files_[rank]->gate->Open(&files_[rank]->plan->scanner->planned_device(device).id);
      }
    }
    devices_.push_back(std::move(plan));
    first = end;
  }
  for (const std::unique_ptr<FileRead>& read : files_) {
    if (read->gate) read->gate->Sort();
  }
  return absl::OkStatus();
}

absl::StatusOr<TableBatch*> MergedScanner::Cursor::DeviceBatch(size_t rank, size_t device) {
  FileRead& read = *files_[rank];
  const std::string& path = scanner_->dataset_->files()[read.file].path;
  const TableScanner& scanner = *read.plan->scanner;
  if (!read.in_order && read.reopened_at != device) {
    absl::Status opened = scanner.OpenCursorInto(ScanSplit{device, 1, 0, 0, 0, 0}, read.cursor);
    if (!opened.ok()) return WithFileName(opened, path);
    read.reopened_at = device;
    read.pending = nullptr;
  }
  if (read.pending == nullptr) {
    absl::StatusOr<TableBatch*> batch = read.cursor->Next();
    if (!batch.ok()) return WithFileName(batch.status(), path);
    if (*batch == nullptr) return nullptr;
    read.pending = *batch;
  }
  // A batch of a later device waits for it (the file's devices come in the merge's order). The
  // merge reads other files meanwhile: this cursor lets go of its share of a memory budget, as an
  // idle cursor does (memory_budget.h: a reader waits for the budget only while its thread holds
  // none of it; with every source of a group holding a chunk group, the one that waited never got
  // it). Its next batch reloads the chunk group.
  if (read.pending->device != &scanner.planned_device(device).id) {
    read.cursor->ReleaseMemory();
    return nullptr;
  }
  TableBatch* batch = std::exchange(read.pending, nullptr);
  if (!read.recast.empty()) {
    const std::vector<ProjectedColumn>& columns = scanner_->inner_->projection();
    for (size_t j : read.recast) CastColumn(batch->columns[j], columns[j].data_type);
    batch->projection = &columns;
  }
  return batch;
}

bool MergedScanner::Cursor::GatedFilter::IsOpen(const DeviceId* device) {
  return std::binary_search(open_.begin(), open_.end(), device);
}

absl::StatusOr<bool> MergedScanner::Cursor::GatedFilter::Take(const RowStatistics& rows) {
  if (!IsOpen(rows.device)) return false;
  if (statistics_->before_file) statistics_->before_file(file_);
  return statistics_->filter->Take(rows);
}

absl::StatusOr<std::optional<size_t>> MergedScanner::Cursor::GatedFilter::TailStart(const RowStatistics& rows,
                                                                                    std::span<const int64_t> times) {
  if (!IsOpen(rows.device)) return std::nullopt;
  if (statistics_->before_file) statistics_->before_file(file_);
  return statistics_->filter->TailStart(rows, times);
}

absl::StatusOr<bool> MergedScanner::Cursor::GatedFilter::TakeTail(const RowStatistics& rows,
                                                                  std::span<const int64_t> times, size_t tail,
                                                                  std::vector<ColumnVector>& head,
                                                                  absl::FunctionRef<absl::Status(size_t)> decode_whole) {
  if (!IsOpen(rows.device)) return false;
  if (statistics_->before_file) statistics_->before_file(file_);
  return statistics_->filter->TakeTail(rows, times, tail, head, decode_whole);
}

absl::StatusOr<MergedScanner::Cursor::DevicePlan> MergedScanner::Cursor::PlanDevice(size_t first, size_t end) {
  const Dataset& dataset = *scanner_->dataset_;
  const std::vector<ProjectedColumn>& read_columns = scanner_->inner_->projection();
  DevicePlan plan;
  plan.first = first;
  plan.end = end;
  const size_t sources = end - first;
  // Masks only for files with deletions (an empty list: nothing masked).
  const bool any_masked = std::any_of(entries_.begin() + static_cast<std::ptrdiff_t>(first),
                                      entries_.begin() + static_cast<std::ptrdiff_t>(end),
                                      [&](const Entry& e) { return files_[e.rank]->masked; });
  if (any_masked) plan.masks.resize(sources);
  // The sources stream one after the other, as their files read them, when nothing is masked and
  // their times never meet: each file's chunks in time order, the files' time spans disjoint.
  // Cast values are merged: statistics of the stored type describe other values.
  bool stream = std::all_of(entries_.begin() + static_cast<std::ptrdiff_t>(first),
                            entries_.begin() + static_cast<std::ptrdiff_t>(end),
                            [&](const Entry& e) { return files_[e.rank]->recast.empty(); });
  // Series metadata only where it decides something: every file with deletions (for its mask),
  // then the others until the device is known to be merged. Those go from the highest priority
  // down: the unsequence files, which overlap others, show it soonest.
  std::vector<size_t> visit;
  for (size_t k = first; k < end; ++k) {
    if (files_[entries_[k].rank]->masked) visit.push_back(k);
  }
  for (size_t k = end; k-- > first;) {
    if (!files_[entries_[k].rank]->masked) visit.push_back(k);
  }
  std::vector<std::pair<int64_t, size_t>> spans;  // (first time, entry), to order streamed sources
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (const size_t k : visit) {
    const Entry& e = entries_[k];
    FileRead& read = *files_[e.rank];
    if (!read.masked && !stream) break;  // the masked files come first: nothing left to decide
    const PlannedDevice& device = read.plan->scanner->planned_device(e.device);
    // A file with deletions: every series (the mask names columns); else the time column alone,
    // the others skipped unparsed.
    std::vector<TimeseriesMetadata>& series = series_;
    if (absl::Status read_series = SeriesOf(*read.plan->reader, device.location, read.masked, read.metadata, series);
        !read_series.ok()) {
      return WithFileName(read_series, dataset.files()[read.file].path);
    }
    if (read.masked && scanner_->mask_) {
      absl::StatusOr<SourceMask> mask = scanner_->mask_(read.file, device.id, series, read_columns);
      if (!mask.ok()) return WithFileName(mask.status(), dataset.files()[read.file].path);
      plan.masks[k - first] = std::move(*mask);
    }
    stream = stream && (!any_masked || plan.masks[k - first].empty()) && TimeChunksIncrease(series);
    if (stream && sources > 1) {
      const std::optional<std::pair<int64_t, int64_t>> span = TimeSpan(series);
      if (span.has_value()) {
        for (const auto& [begin, last] : ranges) stream = stream && (span->second < begin || span->first > last);
        spans.emplace_back(span->first, k);
        ranges.push_back(*span);
      }
    }
  }
  plan.stream = stream;
  if (stream) {
    plan.masks.clear();
    if (sources == 1) {
      plan.order.emplace_back(entries_[first].rank, entries_[first].device);
    } else {
      std::sort(spans.begin(), spans.end());
      for (const auto& [start, k] : spans) plan.order.emplace_back(entries_[k].rank, entries_[k].device);
    }
  }
  return plan;
}

absl::Status MergedScanner::Cursor::StartDevice() {
  const std::vector<ProjectedColumn>& read_columns = scanner_->inner_->projection();
  DevicePlan& plan = devices_[next_device_++];
  if (plan.stream) {
    stream_ = std::move(plan.order);
    stream_next_ = 0;
    mode_ = Mode::kStream;
    return absl::OkStatus();
  }
  const size_t first = plan.first;
  const size_t next_entry = plan.end;
  std::vector<SourceMask>& masks = plan.masks;
  // Each source's rows in memory, masked and cut into runs of increasing time; runs in priority order.
  size_t used = 0;
  for (size_t k = first; k < next_entry; ++k) {
    const Entry& e = entries_[k];
    SourceRows* rows = nullptr;
    while (true) {
      TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, DeviceBatch(e.rank, e.device));
      if (batch == nullptr) break;
      if (rows == nullptr) {
        if (runs_.size() <= used) runs_.emplace_back();
        rows = &runs_[used++];
        out_.device = e.id;
        out_.projection = batch->projection;
        out_.file = batch->file;
        TakeRows(*batch, read_columns.size(), *rows);  // the first batch's buffers, not a copy
        continue;
      }
      AppendRows(*batch, *rows);
    }
    if (rows == nullptr) continue;
    if (k - first < masks.size()) ApplyMask(masks[k - first], *rows);
    // A file whose chunks repeat times holds several runs: the later chunks' rows after the earlier.
    if (StrictlyIncreasing(rows->times)) continue;
    std::vector<SourceRows> cut = SplitRuns(std::move(*rows));
    *rows = std::move(cut[0]);
    for (size_t c = 1; c < cut.size(); ++c) {
      if (runs_.size() <= used) runs_.emplace_back();
      runs_[used++] = std::move(cut[c]);
    }
  }
  std::vector<const SourceRows*> order;
  for (size_t r = 0; r < used; ++r) order.push_back(&runs_[r]);
  MergeRunsInto(order, merged_, scratch_);
  merged_next_ = 0;
  mode_ = Mode::kMerged;
  return absl::OkStatus();
}

}  // namespace tsread
