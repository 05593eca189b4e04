#include "tsread/read/table_scanner.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
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

}  // namespace

TableScanner::TableScanner(const TsFileReader& reader, ScanOptions options, std::vector<ProjectedColumn> projection)
    : reader_(&reader), options_(std::move(options)), projection_(std::move(projection)),
      columns_(AlignedColumnsOf(projection_)) {}

absl::StatusOr<std::unique_ptr<TableScanner>> TableScanner::Create(const TsFileReader& reader, ScanOptions options) {
  const TableSchema* schema = reader.FindTable(options.table);
  if (schema == nullptr) return absl::InvalidArgumentError(absl::StrCat("no table named \"", options.table, "\""));
  TSREAD_ASSIGN_OR_RETURN(std::vector<ProjectedColumn> projection, ResolveProjection(*schema, options.columns));
  if (options.num_threads < 1) return absl::InvalidArgumentError("num_threads must be at least 1");
  std::unique_ptr<TableScanner> scanner(new TableScanner(reader, std::move(options), std::move(projection)));
  TSREAD_RETURN_IF_ERROR(scanner->PlanDevices());
  return scanner;
}

absl::Status TableScanner::PlanDevices() {
  const TableSchema& schema = *reader_->FindTable(options_.table);
  TSREAD_ASSIGN_OR_RETURN(std::vector<ResolvedPredicate> predicates,
                          ResolvePredicates(schema, options_.tag_predicates));
  if (reader_->metadata().FindIndex(options_.table) == nullptr) return absl::OkStatus();
  TSREAD_ASSIGN_OR_RETURN(DeviceIterator it, reader_->Devices(options_.table));
  std::vector<int64_t> chunk_offsets;  // every chunk of the planned devices, for chunk sizes
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(const DeviceEntry* entry, it.Next());
    if (entry == nullptr) break;
    DeviceId id = entry->id.ToOwned();
    // Tag predicates prune the device before any of its metadata or chunks is read.
    if (!DeviceMatches(id, predicates)) continue;
    TSREAD_ASSIGN_OR_RETURN(std::vector<TimeseriesMetadata> all, reader_->ReadTimeseries(entry->location));
    PlannedDevice device;
    device.id = std::move(id);
    for (TimeseriesMetadata& tsm : all) {
      for (const ChunkMetadata& chunk : tsm.chunks) chunk_offsets.push_back(chunk.offset);
      const bool projected = tsm.is_time_column() ||
                             std::any_of(columns_.begin(), columns_.end(), [&](const AlignedColumn& c) {
                               return c.stored && c.measurement == tsm.measurement;
                             });
      if (tsm.is_time_column()) device.rows = tsm.statistics.count;
      if (projected) device.series.push_back(std::move(tsm));
    }
    devices_.push_back(std::move(device));
  }
  std::sort(chunk_offsets.begin(), chunk_offsets.end());
  // A chunk's size: up to the next chunk (or the data section's end), in file order.
  for (PlannedDevice& device : devices_) {
    for (const TimeseriesMetadata& tsm : device.series) {
      for (const ChunkMetadata& chunk : tsm.chunks) {
        auto next = std::upper_bound(chunk_offsets.begin(), chunk_offsets.end(), chunk.offset);
        const int64_t end =
            next == chunk_offsets.end() ? static_cast<int64_t>(reader_->metadata().meta_offset) : *next;
        device.bytes += static_cast<uint64_t>(end - chunk.offset);
      }
    }
  }
  return absl::OkStatus();
}

uint64_t TableScanner::planned_rows() const {
  uint64_t rows = 0;
  for (const PlannedDevice& device : devices_) rows += device.rows;
  return rows;
}

std::vector<ScanSplit> TableScanner::Splits(size_t max_splits) const {
  std::vector<ScanSplit> splits;
  if (devices_.empty() || max_splits == 0) return splits;
  uint64_t total = 0;
  for (const PlannedDevice& device : devices_) total += device.bytes;
  const uint64_t target = std::max<uint64_t>(1, (total + max_splits - 1) / max_splits);
  ScanSplit current;
  for (size_t d = 0; d < devices_.size(); ++d) {
    if (current.device_count > 0 && current.bytes + devices_[d].bytes > target && splits.size() + 1 < max_splits) {
      splits.push_back(current);
      current = ScanSplit{d, 0, 0};
    }
    ++current.device_count;
    current.bytes += devices_[d].bytes;
  }
  splits.push_back(current);
  return splits;
}

absl::StatusOr<TableScanner::Cursor> TableScanner::OpenCursor(std::optional<ScanSplit> split) const {
  const ScanSplit range = split.value_or(ScanSplit{0, devices_.size(), 0});
  if (range.first_device > devices_.size() || range.device_count > devices_.size() - range.first_device) {
    return absl::InvalidArgumentError("split is outside the planned devices");
  }
  return Cursor(this, range);
}

absl::StatusOr<TableBatch*> TableScanner::Cursor::Next() {
  const size_t limit = scanner_->options_.batch_size;
  // Hand out the rest of a page that is larger than batch_size.
  if (limit > 0 && slice_begin_ > 0 && slice_begin_ < batch_.num_rows()) return NextSlice(limit);
  while (true) {
    if (!in_device_) {
      if (next_device_ >= split_.first_device + split_.device_count) return static_cast<TableBatch*>(nullptr);
      const PlannedDevice& device = scanner_->devices_[next_device_++];
      TSREAD_RETURN_IF_ERROR(device_reader_.Reset(*scanner_->reader_, device.id.ToString(), device.series,
                                                  scanner_->columns_, scanner_->options_.time_range,
                                                  scanner_->options_.limits));
      batch_.device = &device.id;
      in_device_ = true;
    }
    TSREAD_ASSIGN_OR_RETURN(bool has_page, device_reader_.NextPage(batch_.times, batch_.columns));
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

TableBatch* TableScanner::Cursor::NextSlice(size_t limit) {
  const size_t count = std::min(limit, batch_.num_rows() - slice_begin_);
  slice_.device = batch_.device;
  slice_.times.assign(batch_.times.begin() + static_cast<std::ptrdiff_t>(slice_begin_),
                      batch_.times.begin() + static_cast<std::ptrdiff_t>(slice_begin_ + count));
  slice_.columns.resize(batch_.columns.size());
  for (size_t j = 0; j < batch_.columns.size(); ++j) slice_.columns[j].AssignRows(batch_.columns[j], slice_begin_, count);
  slice_begin_ += count;
  return &slice_;
}

absl::Status TableScanner::ScanSplitRows(const ScanSplit& split,
                                         const std::function<absl::Status(const TableBatch&)>& consume) const {
  TSREAD_ASSIGN_OR_RETURN(Cursor cursor, OpenCursor(split));
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, cursor.Next());
    if (batch == nullptr) return absl::OkStatus();
    TSREAD_RETURN_IF_ERROR(consume(*batch));
  }
}

absl::Status TableScanner::Scan(const std::function<absl::Status(int worker, const TableBatch&)>& consume) const {
  if (options_.num_threads == 1) {
    ScanSplit all{0, devices_.size(), 0};
    return ScanSplitRows(all, [&](const TableBatch& batch) { return consume(0, batch); });
  }
  return options_.ordered ? ScanOrdered(consume) : ScanUnordered(consume);
}

namespace {

// A batch taken from a worker's cursor. Batches own all their values, so taking one is a swap of
// buffers: the cursor gets those of an already consumed batch in exchange, and steady state
// allocates nothing.
struct OwnedBatch {
  TableBatch batch;
};

OwnedBatch TakeBatch(TableBatch& from, OwnedBatch recycled) {
  OwnedBatch owned = std::move(recycled);
  owned.batch.device = from.device;
  std::swap(owned.batch.times, from.times);
  std::swap(owned.batch.columns, from.columns);
  return owned;
}

}  // namespace

absl::Status TableScanner::ScanOrdered(const std::function<absl::Status(int worker, const TableBatch&)>& consume) const {
  const int threads = options_.num_threads;
  const std::vector<ScanSplit> splits = Splits(static_cast<size_t>(threads) * 8);
  // Workers may decode up to `window` splits ahead of the one being delivered, and buffer at
  // most kMaxQueued batches of a split that is not being delivered: memory stays bounded.
  const size_t window = static_cast<size_t>(threads) * 2;
  constexpr size_t kMaxQueued = 16;
  struct SplitState {
    std::deque<OwnedBatch> batches;
    bool done = false;
    absl::Status status;
  };
  std::vector<SplitState> state(splits.size());
  std::vector<OwnedBatch> consumed;  // delivered batches whose buffers the workers reuse
  std::mutex mutex;
  std::condition_variable changed;
  size_t next_to_claim = 0;
  size_t delivering = 0;
  bool stop = false;

  auto work = [&]() {
    while (true) {
      size_t s;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return stop || next_to_claim >= splits.size() || next_to_claim < delivering + window; });
        if (stop || next_to_claim >= splits.size()) return;
        s = next_to_claim++;
      }
      absl::Status status = [&]() -> absl::Status {
        TSREAD_ASSIGN_OR_RETURN(Cursor cursor, OpenCursor(splits[s]));
        while (true) {
          TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, cursor.Next());
          if (batch == nullptr) return absl::OkStatus();
          OwnedBatch recycled;
          {
            std::lock_guard<std::mutex> lock(mutex);
            if (!consumed.empty()) {
              recycled = std::move(consumed.back());
              consumed.pop_back();
            }
          }
          OwnedBatch owned = TakeBatch(*batch, std::move(recycled));
          std::unique_lock<std::mutex> lock(mutex);
          changed.wait(lock, [&] { return stop || s == delivering || state[s].batches.size() < kMaxQueued; });
          if (stop) return absl::CancelledError("scan stopped");
          state[s].batches.push_back(std::move(owned));
          changed.notify_all();
        }
      }();
      std::lock_guard<std::mutex> lock(mutex);
      state[s].done = true;
      state[s].status = status;
      changed.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (int w = 0; w < threads; ++w) pool.emplace_back(work);

  absl::Status result;
  for (size_t s = 0; s < splits.size() && result.ok(); ++s) {
    while (true) {
      std::optional<OwnedBatch> next;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return !state[s].batches.empty() || state[s].done; });
        if (!state[s].batches.empty()) {
          next.emplace(std::move(state[s].batches.front()));
          state[s].batches.pop_front();
          changed.notify_all();
        } else {
          result = state[s].status;
          delivering = s + 1;
          changed.notify_all();
          break;
        }
      }
      result = consume(0, next->batch);
      if (!result.ok()) break;
      std::lock_guard<std::mutex> lock(mutex);
      if (consumed.size() < window * kMaxQueued) consumed.push_back(std::move(*next));
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
    changed.notify_all();
  }
  for (std::thread& t : pool) t.join();
  return result;
}

absl::Status TableScanner::ScanUnordered(
    const std::function<absl::Status(int worker, const TableBatch&)>& consume) const {
  const int threads = options_.num_threads;
  // Several splits per worker so that uneven devices still balance; workers take the next
  // split as they finish one.
  const std::vector<ScanSplit> splits = Splits(static_cast<size_t>(threads) * 8);
  std::atomic<size_t> next_split{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  absl::Status first_error;
  auto work = [&](int worker) {
    while (!failed.load(std::memory_order_relaxed)) {
      const size_t s = next_split.fetch_add(1);
      if (s >= splits.size()) return;
      absl::Status status = ScanSplitRows(splits[s], [&](const TableBatch& batch) {
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
  std::vector<std::thread> pool;
  for (int w = 1; w < threads; ++w) pool.emplace_back(work, w);
  work(0);
  for (std::thread& t : pool) t.join();
  return first_error;
}

}  // namespace tsread
