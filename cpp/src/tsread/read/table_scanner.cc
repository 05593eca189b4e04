#include "tsread/read/table_scanner.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/format/string_order.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// Segment indexes and accepted values of the tag predicates, resolved against the projection's
// schema.
struct ResolvedPredicate {
  size_t segment = 0;
  const TagPredicate* predicate = nullptr;
};

absl::StatusOr<std::vector<ResolvedPredicate>> ResolvePredicates(const TableSchema& schema,
                                                                 const std::vector<TagPredicate>& predicates) {
  std::vector<ResolvedPredicate> resolved;
  for (const TagPredicate& p : predicates) {
    std::optional<size_t> index = schema.FindColumn(p.column);
    std::optional<size_t> ordinal = index.has_value() ? schema.TagOrdinal(*index) : std::nullopt;
    if (!ordinal.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat("\"", p.column, "\" is not a TAG column of table \"",
                                                     schema.name, "\""));
    }
    resolved.push_back(ResolvedPredicate{*ordinal + 1, &p});
  }
  return resolved;
}

bool DeviceMatches(const DeviceId& device, const std::vector<ResolvedPredicate>& predicates) {
  for (const ResolvedPredicate& p : predicates) {
    const std::optional<std::string_view> tag = device.segment(p.segment);
    bool any = false;
    for (const std::optional<std::string>& value : p.predicate->values) {
      if (value.has_value() ? (tag.has_value() && *tag == *value) : !tag.has_value()) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return true;
}

// Null before any string, then Java String order: the order of segments in the device index
// (§6.4).
bool TagValueLess(const std::optional<std::string>& a, const std::optional<std::string>& b) {
  if (!a.has_value() || !b.has_value()) return !a.has_value() && b.has_value();
  return CompareJavaStrings(*a, *b) < 0;
}

// Beyond this many candidate ids, walking the index is cheaper than a lookup per id.
constexpr uint64_t kMaxPinnedDevices = 1024;

// When the predicates pin every TAG column to a short list of values, the device ids they allow,
// in index order (each column's values sorted, the first column most significant — a shorter id
// from trailing nulls sorts before its extensions either way); nullopt otherwise.
std::optional<std::vector<DeviceId>> PinnedDevices(const TableSchema& schema,
                                                   const std::vector<ResolvedPredicate>& predicates) {
  const size_t tags = static_cast<size_t>(std::count_if(schema.columns.begin(), schema.columns.end(), [](const ColumnSchema& c) {
    return c.category == ColumnCategory::kTag;
  }));
  if (tags == 0) return std::nullopt;
  std::vector<std::vector<std::optional<std::string>>> values(tags);
  std::vector<bool> pinned(tags, false);
  uint64_t combinations = 1;
  for (const ResolvedPredicate& p : predicates) {
    const size_t tag = p.segment - 1;
    if (pinned[tag]) return std::nullopt;  // two predicates on one column: let the walk AND them
    pinned[tag] = true;
    values[tag] = p.predicate->values;
    std::sort(values[tag].begin(), values[tag].end(), TagValueLess);
    values[tag].erase(std::unique(values[tag].begin(), values[tag].end()), values[tag].end());
    combinations *= values[tag].size();
    if (combinations > kMaxPinnedDevices) return std::nullopt;
  }
  if (std::find(pinned.begin(), pinned.end(), false) != pinned.end()) return std::nullopt;
  std::vector<DeviceId> ids;
  std::vector<size_t> at(tags, 0);  // an odometer over the value lists, last column fastest
  for (uint64_t n = 0; n < combinations; ++n) {
    std::vector<std::optional<std::string>> segments = {schema.name};
    for (size_t t = 0; t < tags; ++t) segments.push_back(values[t][at[t]]);
    ids.emplace_back(std::move(segments));
    for (size_t t = tags; t-- > 0;) {
      if (++at[t] < values[t].size()) break;
      at[t] = 0;
    }
  }
  return ids;
}

}  // namespace

TableScanner::TableScanner(const TsFileReader& reader, ScanOptions options, std::vector<ProjectedColumn> projection)
    : reader_(&reader), options_(std::move(options)), projection_(std::move(projection)),
      columns_(AlignedColumnsOf(projection_)) {}

absl::StatusOr<std::unique_ptr<TableScanner>> TableScanner::Create(const TsFileReader& reader, ScanOptions options) {
  const TableSchema* schema = reader.FindTable(options.table);
  if (schema == nullptr) return absl::InvalidArgumentError(absl::StrCat("no table named \"", options.table, "\""));
  TSREAD_ASSIGN_OR_RETURN(std::vector<ProjectedColumn> projection, ResolveProjection(*schema, options.columns, options.columns_if_absent));
  if (options.num_threads < 1) return absl::InvalidArgumentError("num_threads must be at least 1");
  if (options.memory_budget > 0 && options.shared_memory_budget == nullptr) {
    options.shared_memory_budget = std::make_shared<MemoryBudget>(options.memory_budget);
  }
  if (options.predicate_work == nullptr) options.predicate_work = std::make_shared<PredicateWork>();
  if (options.statistics_filter != nullptr && !options.value_predicates.empty()) {
    return absl::InvalidArgumentError("a scan takes a statistics filter or value predicates, not both");
  }
  std::unique_ptr<TableScanner> scanner(new TableScanner(reader, std::move(options), std::move(projection)));
  TSREAD_RETURN_IF_ERROR(scanner->BindValuePredicates(*schema));
  TSREAD_RETURN_IF_ERROR(scanner->PlanDevices());
  return scanner;
}

absl::Status TableScanner::PlanDevices() {
  const TableSchema& schema = *reader_->FindTable(options_.table);
  TSREAD_ASSIGN_OR_RETURN(std::vector<ResolvedPredicate> predicates,
                          ResolvePredicates(schema, options_.tag_predicates));
  if (reader_->metadata().FindIndex(options_.table) == nullptr) return absl::OkStatus();
  // Predicates that name whole devices: one binary search down the index per candidate id, so a
  // device absent from the file costs one lookup.
  if (std::optional<std::vector<DeviceId>> pinned = PinnedDevices(schema, predicates); pinned.has_value()) {
    for (DeviceId& id : *pinned) {
      TSREAD_ASSIGN_OR_RETURN(std::optional<DeviceLocation> location, reader_->FindDevice(options_.table, id));
      if (location.has_value() && DeviceSatisfiesTagConditions(id)) {
        devices_.push_back(PlannedDevice{std::move(id), *location});
      }
    }
    return absl::OkStatus();
  }
  TSREAD_ASSIGN_OR_RETURN(DeviceIterator it, reader_->Devices(options_.table));
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(const DeviceEntry* entry, it.Next());
    if (entry == nullptr) return absl::OkStatus();
    DeviceId id = entry->id.ToOwned();
    // Tag predicates prune the device before any of its metadata or chunks is read.
    if (DeviceMatches(id, predicates) && DeviceSatisfiesTagConditions(id)) {
      devices_.push_back(PlannedDevice{std::move(id), entry->location});
    }
  }
}

bool TableScanner::IsProjected(const TimeseriesMetadata& series) const {
  return series.is_time_column() || std::any_of(columns_.begin(), columns_.end(), [&](const AlignedColumn& c) {
           return c.stored && c.measurement == series.measurement;
         });
}

absl::StatusOr<TableScanner::Cursor> TableScanner::OpenCursor(std::optional<ScanSplit> split) const {
  const ScanSplit range = split.value_or(ScanSplit{0, devices_.size(), 0});
  TSREAD_RETURN_IF_ERROR(CheckSplit(range));
  return Cursor(this, range);
}

absl::Status TableScanner::OpenCursorInto(const ScanSplit& split, std::optional<Cursor>& cursor) const {
  if (cursor.has_value()) return cursor->Reopen(*this, split);
  TSREAD_ASSIGN_OR_RETURN(Cursor opened, OpenCursor(split));
  cursor.emplace(std::move(opened));
  return absl::OkStatus();
}

absl::Status TableScanner::ScanSplitRows(const ScanSplit& split, std::optional<Cursor>& cursor,
                                         const std::function<absl::Status(TableBatch&)>& consume) const {
  TSREAD_RETURN_IF_ERROR(OpenCursorInto(split, cursor));
  return cursor->ForEachBatch(consume);
}

absl::Status TableScanner::CheckSplit(const ScanSplit& split) const {
  if (split.first_device > devices_.size() || split.device_count > devices_.size() - split.first_device) {
    return absl::InvalidArgumentError("split is outside the planned devices");
  }
  return absl::OkStatus();
}

absl::StatusOr<TableBatch*> TableScanner::Cursor::Next() {
  const size_t limit = scanner_->options_.batch_size;
  // Hand out the rest of a page that is larger than batch_size.
  if (limit > 0 && slice_begin_ > 0 && slice_begin_ < batch_.num_rows()) return NextSlice(limit);
  while (true) {
    if (!in_device_) {
      if (next_device_ >= split_.first_device + split_.device_count) {
        ReleaseMemory();  // an idle cursor holds none of a budget
        return static_cast<TableBatch*>(nullptr);
      }
      TSREAD_RETURN_IF_ERROR(StartDevice(scanner_->devices_[next_device_++]));
      in_device_ = true;
    }
    TSREAD_ASSIGN_OR_RETURN(bool has_page, NextPage());
    if (!has_page) {
      in_device_ = false;
      continue;
    }
    if (batch_.num_rows() == 0) continue;
    if (limit == 0 || batch_.num_rows() <= limit) return &batch_;
    slice_begin_ = 0;
    return NextSlice(limit);
  }
}

absl::StatusOr<bool> TableScanner::Cursor::NextPage() {
  const size_t projected = scanner_->projection_.size();
  if (scanner_->columns_.size() == projected) return device_reader_.NextPage(batch_.times, batch_.columns);
  TSREAD_ASSIGN_OR_RETURN(bool has_page, device_reader_.NextPage(batch_.times, page_columns_));
  // Swapped, not moved: both keep their buffers for the next page.
  batch_.columns.resize(projected);
  for (size_t j = 0; j < projected; ++j) std::swap(batch_.columns[j], page_columns_[j]);
  return has_page;
}

void TableScanner::Cursor::Restart(const ScanSplit& split) {
  split_ = split;
  next_device_ = split.first_device;
  in_device_ = false;
  slice_begin_ = 0;
}

absl::Status TableScanner::Cursor::Reopen(const TableScanner& scanner, const ScanSplit& split) {
  TSREAD_RETURN_IF_ERROR(scanner.CheckSplit(split));
  MoveTo(scanner);
  Restart(split);
  return absl::OkStatus();
}

void TableScanner::Cursor::MoveTo(const TableScanner& scanner) {
  // Always, even for the same address: a scanner (and its file) may have been destroyed and
  // another made in its place since this cursor's last split.
  index_reads_.ForgetFile();
  device_reader_.ForgetFile();
  scanner_ = &scanner;
}

absl::Status TableScanner::Cursor::StartDevice(const PlannedDevice& device) {
  // Only the projected series are decoded (the time column "" and the stored columns), into the
  // objects of the previous device's (no allocation per device).
  const TsFileReader::MeasurementFilter wanted = [this](std::string_view measurement) {
    return measurement.empty() || std::any_of(scanner_->columns_.begin(), scanner_->columns_.end(),
                                              [&](const AlignedColumn& c) { return c.stored && c.measurement == measurement; });
  };
  TSREAD_RETURN_IF_ERROR(scanner_->reader_->ReadTimeseriesInto(device.location, *series_, &index_reads_, &wanted));
  // A series named "" that is not a time column (a corrupt file) is no projected column either.
  std::erase_if(*series_, [](const TimeseriesMetadata& tsm) { return tsm.measurement.empty() && !tsm.is_time_column(); });
  batch_.device = &device.id;
  batch_.projection = &scanner_->projection_;
  batch_.file = &scanner_->reader_->file().name();
  device_reader_.SetStatisticsFilter(scanner_->options_.statistics_filter, &device.id);
  device_reader_.SetPredicates(&scanner_->filter_, &device.id, scanner_->options_.predicate_work.get());
  return device_reader_.Reset(*scanner_->reader_, device.id, *series_, scanner_->columns_,
                              scanner_->options_.time_range, scanner_->options_.limits,
                              scanner_->options_.shared_memory_budget.get());
}

TableBatch* TableScanner::Cursor::NextSlice(size_t limit) {
  const size_t count = std::min(limit, batch_.num_rows() - slice_begin_);
  slice_.device = batch_.device;
  slice_.projection = batch_.projection;
  slice_.file = batch_.file;
  slice_.times.assign(batch_.times.begin() + static_cast<std::ptrdiff_t>(slice_begin_),
                      batch_.times.begin() + static_cast<std::ptrdiff_t>(slice_begin_ + count));
  slice_.columns.resize(batch_.columns.size());
  for (size_t j = 0; j < batch_.columns.size(); ++j) slice_.columns[j].AssignRows(batch_.columns[j], slice_begin_, count);
  slice_begin_ += count;
  return &slice_;
}

absl::Status TableScanner::Cursor::ForEachBatch(const std::function<absl::Status(TableBatch&)>& consume) {
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, Next());
    if (batch == nullptr) return absl::OkStatus();
    TSREAD_RETURN_IF_ERROR(consume(*batch));
  }
}

absl::Status TableScanner::ScanSplitRows(const ScanSplit& split,
                                         const std::function<absl::Status(TableBatch&)>& consume) const {
  std::optional<Cursor> cursor;
  return ScanSplitRows(split, cursor, consume);
}

absl::Status TableScanner::Scan(const std::function<absl::Status(int worker, TableBatch&)>& consume) const {
  Workspace workspace;
  return Scan(consume, workspace);
}

absl::Status TableScanner::Scan(const std::function<absl::Status(int worker, TableBatch&)>& consume,
                                Workspace& workspace) const {
  const std::vector<Cursor*> cursors = WorkspaceCursors(workspace, options_.num_threads);
  if (options_.num_threads == 1) {
    cursors[0]->Restart(ScanSplit{0, devices_.size(), 0});
    return cursors[0]->ForEachBatch([&](TableBatch& batch) { return consume(0, batch); });
  }
  return options_.ordered ? ScanOrdered(consume, cursors, workspace) : ScanUnordered(consume, cursors);
}

std::vector<TableScanner::Cursor*> TableScanner::WorkspaceCursors(Workspace& workspace, int threads) const {
  std::vector<std::optional<Cursor>>& kept = workspace.cursors_;
  if (kept.size() < static_cast<size_t>(threads)) kept.resize(static_cast<size_t>(threads));
  std::vector<Cursor*> cursors;
  for (int t = 0; t < threads; ++t) {
    std::optional<Cursor>& cursor = kept[static_cast<size_t>(t)];
    if (cursor.has_value()) {
      cursor->MoveTo(*this);
    } else {
      cursor.emplace(NewCursor());
    }
    cursors.push_back(&*cursor);
  }
  return cursors;
}

absl::Status TableScanner::ScanUnordered(const std::function<absl::Status(int worker, TableBatch&)>& consume,
                                         const std::vector<Cursor*>& cursors) const {
  const int threads = options_.num_threads;
  // Workers take the next split as they finish one; the last splits are small, so that uneven
  // devices (or a stalled worker) still balance.
  const std::vector<ScanSplit> splits = ShrinkingSplits(static_cast<size_t>(threads));
  std::atomic<size_t> next_split{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  absl::Status first_error;
  auto scan_splits = [&](int worker, Cursor& cursor) {
    while (!failed.load(std::memory_order_relaxed)) {
      const size_t s = next_split.fetch_add(1);
      if (s >= splits.size()) return;
      cursor.Restart(splits[s]);
      absl::Status status = cursor.ForEachBatch([&](TableBatch& batch) {
        if (failed.load(std::memory_order_relaxed)) return absl::CancelledError("scan stopped");
        return consume(worker, batch);
      });
      if (!status.ok()) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!failed.exchange(true)) first_error = status;
        return;
      }
    }
  };
  auto work = [&](int worker) {
    Cursor& cursor = *cursors[static_cast<size_t>(worker)];
    scan_splits(worker, cursor);
    // Stopped mid-split (an error anywhere), the cursor still holds its share of a memory budget,
    // which a worker still loading may be waiting for (memory_budget.h). The workspace keeps the
    // cursor after the scan, so it lets go now.
    cursor.ReleaseMemory();
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < threads; ++w) pool.emplace_back(work, w);
  work(0);
  for (std::thread& t : pool) t.join();
  return first_error;
}

}  // namespace tsread
