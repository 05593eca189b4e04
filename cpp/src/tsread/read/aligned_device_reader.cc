#include "tsread/read/aligned_device_reader.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/page_times.h"

namespace tsread {

absl::Status AlignedDeviceReader::Reset(const TsFileReader& reader, const DeviceId& device,
                                        const std::vector<TimeseriesMetadata>& series,
                                        const std::vector<AlignedColumn>& columns, const TimeRange& range,
                                        const ReadLimits& limits, MemoryBudget* budget) {
  device_name_.clear();
  named_device_ = &device;
  return Start(reader, series, columns, range, limits, budget);
}

absl::Status AlignedDeviceReader::Reset(const TsFileReader& reader, std::string device_name,
                                        const std::vector<TimeseriesMetadata>& series,
                                        const std::vector<AlignedColumn>& columns, const TimeRange& range,
                                        const ReadLimits& limits, MemoryBudget* budget) {
  device_name_ = std::move(device_name);
  named_device_ = nullptr;
  return Start(reader, series, columns, range, limits, budget);
}

std::string AlignedDeviceReader::DeviceName() const {
  return named_device_ != nullptr ? named_device_->ToString() : device_name_;
}

absl::Status AlignedDeviceReader::Start(const TsFileReader& reader, const std::vector<TimeseriesMetadata>& series,
                                        const std::vector<AlignedColumn>& columns, const TimeRange& range,
                                        const ReadLimits& limits, MemoryBudget* budget) {
  if (budget != memory_.budget()) {
    // What is accounted belongs to the old budget: give it back there, with the buffers it covers.
    FreeBuffers();
    memory_.Attach(budget);
  }
  reader_ = &reader;
  columns_ = &columns;
  range_ = &range;
  limits_ = &limits;
  series_ = &series;
  ReleaseChunks();
  value_chunks_.assign(columns.size(), nullptr);
  value_store_.resize(columns.size());
  value_scratch_.resize(columns.size());
  plan_ = nullptr;
  group_loaded_ = false;
  next_plan_ = 0;
  plan_count_ = 0;
  const TimeseriesMetadata* time = nullptr;
  for (const TimeseriesMetadata& tsm : *series_) {
    if (tsm.is_time_column()) time = &tsm;
  }
  if (time == nullptr || !range_->Overlaps(time->statistics)) return absl::OkStatus();
  time_series_ = time;
  FindColumnSeries();
  TSREAD_ASSIGN_OR_RETURN(bool taken, FilterTakesDevice(*time));
  if (taken) return absl::OkStatus();
  TSREAD_ASSIGN_OR_RETURN(bool ruled_out, PredicatesRuleOutDevice(*time));
  if (ruled_out) return absl::OkStatus();
  return PlanChunkGroups(*time);
}

void AlignedDeviceReader::FindColumnSeries() {
  column_series_.assign(columns_->size(), nullptr);
  for (size_t j = 0; j < columns_->size(); ++j) {
    const AlignedColumn& column = (*columns_)[j];
    if (!column.stored) continue;
    auto tsm = std::find_if(series_->begin(), series_->end(), [&](const TimeseriesMetadata& s) {
      return !s.is_time_column() && s.measurement == column.measurement;
    });
    if (tsm != series_->end()) column_series_[j] = &*tsm;
  }
}

void AlignedDeviceReader::StartFilterView(StatisticsLevel level, const Statistics& time) {
  const size_t n = columns_->size();
  filter_view_.level = level;
  filter_view_.device = device_;
  filter_view_.time = &time;
  filter_view_.time_series = time_series_;
  filter_view_.complete = true;
  filter_view_.values.assign(n, nullptr);
  filter_view_.series = column_series_;
  filter_view_.chunks.assign(level == StatisticsLevel::kChunkGroup ? n : 0, nullptr);
  filter_view_.headers.assign(level == StatisticsLevel::kPage ? n : 0, nullptr);
}

absl::StatusOr<bool> AlignedDeviceReader::FilterTakesDevice(const TimeseriesMetadata& time) {
  if (filter_ == nullptr) return false;
  StartFilterView(StatisticsLevel::kDevice, time.statistics);
  for (size_t j = 0; j < column_series_.size(); ++j) {
    const TimeseriesMetadata* series = column_series_[j];
    if (series != nullptr && !series->statistics.empty()) filter_view_.values[j] = &series->statistics;
  }
  return filter_->Take(filter_view_);
}

absl::StatusOr<bool> AlignedDeviceReader::FilterTakesChunkGroup(const ChunkGroupPlan& plan) {
  if (filter_ == nullptr) return false;
  StartFilterView(StatisticsLevel::kChunkGroup, plan.time_chunk->statistics);
  for (size_t j = 0; j < plan.value_chunks.size(); ++j) {
    if (plan.value_chunks[j] == nullptr) continue;
    filter_view_.chunks[j] = plan.value_chunks[j];
    filter_view_.values[j] = &plan.value_chunks[j]->statistics;
  }
  return filter_->Take(filter_view_);
}

absl::StatusOr<bool> AlignedDeviceReader::FilterTakesPage(size_t k, const Statistics& time) {
  if (filter_ == nullptr) return false;
  StartFilterView(StatisticsLevel::kPage, time);
  // The only page of a chunk has no statistics of its own: its chunk's are its (§3). A page of a
  // multi-page chunk without them can only be decoded.
  if (!time_chunk_.pages[k].header.statistics.has_value() && time_chunk_.pages.size() != 1) {
    filter_view_.complete = false;
  }
  for (size_t j = 0; j < value_chunks_.size(); ++j) {
    if (value_chunks_[j] == nullptr) continue;
    filter_view_.headers[j] = &value_chunks_[j]->header;
    const std::optional<const Statistics*> values = PageValueStatistics(j, k);
    if (values.has_value()) {
      filter_view_.values[j] = *values;
    } else {
      filter_view_.complete = false;
    }
  }
  TSREAD_ASSIGN_OR_RETURN(bool taken, filter_->Take(filter_view_));
  return taken && filter_view_.complete;
}

std::optional<const Statistics*> AlignedDeviceReader::PageValueStatistics(size_t j, size_t k) const {
  if (value_chunks_[j] == nullptr) return nullptr;  // no chunk in this group: all null
  const ChunkData& chunk = *value_chunks_[j];
  const PageHeader& page = chunk.pages[k].header;
  if (page.uncompressed_size == 0) return nullptr;  // an empty page: all null (§8.3)
  if (page.statistics.has_value()) return &*page.statistics;
  // The only page of a chunk has its chunk's statistics (§3); a page of a multi-page chunk
  // without its own has none to go by.
  if (chunk.pages.size() == 1) return &plan_->value_chunks[j]->statistics;
  return std::nullopt;
}

absl::Status AlignedDeviceReader::PlanChunkGroups(const TimeseriesMetadata& time) {
  const size_t n = columns_->size();
  // plans_'s elements, and their value-chunk lists, are reused from device to device (no
  // allocation per device): the first plan_count_ are this device's.
  if (plans_.size() < time.chunks.size()) plans_.resize(time.chunks.size());
  plan_count_ = time.chunks.size();
  for (size_t g = 0; g < plan_count_; ++g) {
    plans_[g].time_chunk = &time.chunks[g];
    plans_[g].value_chunks.assign(n, nullptr);
  }
  // Pair each value chunk with the time chunk written just before it in its chunk group (§5:
  // robust to value columns missing from some groups).
  for (size_t j = 0; j < n; ++j) {
    const AlignedColumn& column = (*columns_)[j];
    if (column_series_[j] == nullptr) continue;
    for (const ChunkMetadata& chunk : column_series_[j]->chunks) {
      const auto plans_end = plans_.begin() + static_cast<std::ptrdiff_t>(plan_count_);
      auto after = std::upper_bound(plans_.begin(), plans_end, chunk.offset,
                                    [](int64_t offset, const ChunkGroupPlan& p) { return offset < p.time_chunk->offset; });
      if (after == plans_.begin()) {
        return absl::DataLossError(absl::StrCat("corrupt index: value chunk of \"", column.measurement, "\" at offset ",
                                                chunk.offset, " precedes every time chunk of device ", DeviceName()));
      }
      // A count-0 value chunk is an all-null placeholder: nothing to read (§5).
      if (chunk.statistics.count > 0) (after - 1)->value_chunks[j] = &chunk;
    }
  }
  // Chunk groups outside the range are dropped, swapped to the end so that their lists are kept.
  size_t kept = 0;
  for (size_t g = 0; g < plan_count_; ++g) {
    if (!range_->Overlaps(plans_[g].time_chunk->statistics)) continue;
    if (g != kept) std::swap(plans_[g], plans_[kept]);
    ++kept;
  }
  plan_count_ = kept;
  return absl::OkStatus();
}

void AlignedDeviceReader::ReleaseChunks() {
  if (!holds_chunks_) return;  // called at every step of a device: nothing to do most times
  holds_chunks_ = false;
  // The bytes are let go (a read-ahead window's block is reused once no chunk holds it); the page
  // lists keep their capacity.
  time_chunk_.bytes = Buffer();
  time_chunk_.pages.clear();
  for (ChunkData& chunk : value_store_) {  // every one: a load that failed half-way may hold bytes
    chunk.bytes = Buffer();
    chunk.pages.clear();
  }
  std::fill(value_chunks_.begin(), value_chunks_.end(), nullptr);
  group_loaded_ = false;
  memory_.Shrink(chunk_bytes_);
  chunk_bytes_ = 0;
}

void AlignedDeviceReader::FreeBuffers() {
  ReleaseChunks();
  time_scratch_ = PageScratch{};
  for (PageScratch& scratch : value_scratch_) scratch = PageScratch{};
  page_bytes_ = 0;
}

void AlignedDeviceReader::ReleaseMemory() {
  if (!memory_.enabled()) return;
  FreeBuffers();
  memory_.ReleaseAll();
}

void AlignedDeviceReader::BackOff() {
  const uint64_t need = memory_.wanted();
  FreeBuffers();
  memory_.WaitFor(need);
}

absl::Status AlignedDeviceReader::InGroup(absl::Status status) const {
  if (status.ok() || status.code() != absl::StatusCode::kResourceExhausted || !memory_.enabled()) return status;
  return absl::ResourceExhaustedError(absl::StrCat("device ", DeviceName(), ", chunk group of the time chunk at offset ",
                                                   plan_->time_chunk->offset, ": ", status.message()));
}

absl::Status AlignedDeviceReader::LoadPlannedGroup() {
  while (true) {
    absl::Status status = LoadChunksOfPlan();
    if (!IsMemoryBusy(status)) return InGroup(std::move(status));
    BackOff();
  }
}

absl::Status AlignedDeviceReader::LoadChunksOfPlan() {
  ReleaseChunks();
  holds_chunks_ = true;
  const uint64_t before = memory_.used();
  MemoryHold* memory = memory_.enabled() ? &memory_ : nullptr;
  absl::Status loaded = LoadChunkInto(*reader_, plan_->time_chunk->offset, &chunk_reads_, memory, time_chunk_);
  chunk_bytes_ = memory_.used() - before;
  if (!loaded.ok()) return loaded;
  if (!time_chunk_.header.is_time_column()) {
    return absl::DataLossError(absl::StrCat("corrupt index: chunk at offset ", time_chunk_.header.offset,
                                            " is not a time column chunk of device ", DeviceName()));
  }
  for (size_t j = 0; j < columns_->size(); ++j) {
    if (plan_->value_chunks[j] == nullptr) continue;
    ChunkData& chunk = value_store_[j];
    loaded = LoadChunkInto(*reader_, plan_->value_chunks[j]->offset, &chunk_reads_, memory, chunk);
    chunk_bytes_ = memory_.used() - before;
    if (!loaded.ok()) return loaded;
    const std::string& name = (*columns_)[j].measurement;
    if (chunk.header.is_time_column() || chunk.header.measurement != name) {
      return absl::DataLossError(absl::StrCat("corrupt index: chunk at offset ", chunk.header.offset, " is \"",
                                              ToAbsl(chunk.header.measurement), "\", not column \"", name, "\""));
    }
    // The chunk's values are decoded by its header's type; every consumer reads them by the
    // column's (a DOUBLE chunk under an INT64 column would be read as integers that are not there).
    if (chunk.header.data_type != (*columns_)[j].data_type) {
      return absl::DataLossError(absl::StrCat("corrupt chunk at offset ", chunk.header.offset, ": column \"", name,
                                              "\" is stored as ", ToAbsl(DataTypeName(chunk.header.data_type)),
                                              ", its schema says ", ToAbsl(DataTypeName((*columns_)[j].data_type))));
    }
    if (chunk.pages.empty()) {  // an empty value chunk: all null (§8.3)
      chunk.bytes = Buffer();
      continue;
    }
    if (chunk.pages.size() != time_chunk_.pages.size()) {
      return absl::DataLossError(absl::StrCat("corrupt chunk at offset ", chunk.header.offset, ": column \"", name,
                                              "\" has ", chunk.pages.size(), " pages, its time chunk ",
                                              time_chunk_.pages.size()));
    }
    value_chunks_[j] = &chunk;
  }
  group_loaded_ = true;
  return absl::OkStatus();
}

uint64_t AlignedDeviceReader::PageWorkBytes(size_t k) const {
  auto uncompressed = [](const ChunkData& chunk, size_t k) -> uint64_t {
    return chunk.header.compression_byte == 0 ? 0 : chunk.pages[k].header.uncompressed_size;
  };
  const uint64_t rows = PageRowCount(time_chunk_.pages[k], plan_->time_chunk->statistics);
  uint64_t bytes = uncompressed(time_chunk_, k) + rows * 8;
  for (size_t j = 0; j < value_chunks_.size(); ++j) {
    if (value_chunks_[j] == nullptr) continue;
    // Dense values, spread values and validity; binary values also as views and copied bytes.
    const DataType type = (*columns_)[j].data_type;
    const bool binary = type == DataType::kText || type == DataType::kString || type == DataType::kBlob;
    bytes += uncompressed(*value_chunks_[j], k) * (binary ? 2 : 1) + rows * (binary ? 41 : 17);
  }
  return bytes;
}

absl::Status AlignedDeviceReader::ReservePageWork(size_t k) {
  const uint64_t work = PageWorkBytes(k);
  if (work <= page_bytes_) return absl::OkStatus();
  if (work > memory_.limit()) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "device ", DeviceName(), ": page ", k, " of the chunk group of the time chunk at offset ",
        plan_->time_chunk->offset, " needs about ", work, " bytes to decode (from its page headers), more than the ",
        "scan's memory budget of ", memory_.limit(), " bytes (ScanOptions::memory_budget)"));
  }
  absl::Status grown = memory_.Grow(work - page_bytes_);
  if (!grown.ok()) return IsMemoryBusy(grown) ? grown : InGroup(std::move(grown));
  page_bytes_ = work;
  return absl::OkStatus();
}

absl::StatusOr<bool> AlignedDeviceReader::StartNextChunkGroup() {
  ReleaseChunks();
  while (next_plan_ < plan_count_) {
    plan_ = &plans_[next_plan_++];
    TSREAD_ASSIGN_OR_RETURN(bool taken, FilterTakesChunkGroup(*plan_));
    if (taken) continue;
    TSREAD_ASSIGN_OR_RETURN(bool ruled_out, PredicatesRuleOutChunkGroup(*plan_));
    if (ruled_out) continue;
    next_page_ = 0;
    chunk_last_time_.reset();
    return true;
  }
  plan_ = nullptr;
  return false;
}

absl::StatusOr<bool> AlignedDeviceReader::NextPage(std::vector<int64_t>& times, std::vector<ColumnVector>& columns) {
  columns.resize(columns_->size());
  while (true) {
    if (plan_ != nullptr && !group_loaded_) TSREAD_RETURN_IF_ERROR(LoadPlannedGroup());
    if (plan_ != nullptr && next_page_ < time_chunk_.pages.size()) {
      if (!memory_.enabled()) break;
      absl::Status reserved = ReservePageWork(next_page_);
      if (!IsMemoryBusy(reserved)) {
        TSREAD_RETURN_IF_ERROR(reserved);
        break;
      }
      BackOff();  // the group is reloaded, then this page retried
      continue;
    }
    TSREAD_ASSIGN_OR_RETURN(bool started, StartNextChunkGroup());
    if (!started) return false;
  }
  const size_t k = next_page_++;
  const PageRef& time_page = time_chunk_.pages[k];
  for (size_t j = 0; j < columns.size(); ++j) columns[j].type = (*columns_)[j].data_type;
  const Statistics& page_statistics =
      time_page.header.statistics.has_value() ? *time_page.header.statistics : plan_->time_chunk->statistics;
  bool skip = !range_->Overlaps(page_statistics);
  if (!skip) {
    TSREAD_ASSIGN_OR_RETURN(skip, FilterTakesPage(k, page_statistics));
  }
  if (skip) {
    times.clear();
    for (ColumnVector& column : columns) column.Clear();
    return true;
  }
  const uint32_t rows = PageRowCount(time_page, plan_->time_chunk->statistics);
  TSREAD_ASSIGN_OR_RETURN(bool ruled_out, PredicatesRuleOutPage(k, rows));
  // Late materialization: the predicates' columns are decoded first, the rest only for rows kept.
  std::optional<size_t> kept;
  if (!ruled_out) {
    decoded_.assign(columns.size(), 0);
    TSREAD_ASSIGN_OR_RETURN(kept, EvaluatePredicates(k, rows, columns));
  }
  if (ruled_out || kept == 0) {
    times.clear();
    for (ColumnVector& column : columns) column.Clear();
    return true;
  }
  TSREAD_RETURN_IF_ERROR(DecodeTimePage(time_chunk_.header, time_page, rows, *limits_, time_scratch_, times));
  TSREAD_RETURN_IF_ERROR(
      CheckPageTimes(time_chunk_.header, time_page, times, plan_->time_chunk->statistics, chunk_last_time_));
  if (!times.empty()) chunk_last_time_ = times.back();
  const bool cut = !range_->Covers(page_statistics);
  if (predicates_ == nullptr) {
    TSREAD_RETURN_IF_ERROR(DecodeRowsInRange(k, rows, cut, times, columns));
    return true;
  }
  for (size_t j = 0; j < columns.size(); ++j) {
    if (decoded_[j]) continue;
    TSREAD_RETURN_IF_ERROR(DecodeColumn(j, k, rows, columns[j]));
  }
  if (!kept.has_value()) {
    if (cut) KeepRowsInRange(*range_, times, columns);
    return true;
  }
  if (cut) {
    for (size_t r = 0; r < times.size(); ++r) keep_[r] &= static_cast<uint8_t>(range_->Contains(times[r]));
  }
  if (cut || *kept < rows) KeepSelectedRows(times, columns);
  return true;
}

absl::Status AlignedDeviceReader::DecodeRowsInRange(size_t k, uint32_t rows, bool cut, std::vector<int64_t>& times,
                                                    std::vector<ColumnVector>& columns) {
  TSREAD_ASSIGN_OR_RETURN(bool tail_taken, FilterTakesTail(k, rows, times, columns));
  if (!tail_taken) {
    // The rows after the range's end are not decoded: a decoder can stop early, not start late.
    const size_t end = cut ? static_cast<size_t>(std::upper_bound(times.begin(), times.end(), range_->end) -
                                                 times.begin())
                           : times.size();
    times.resize(end);
    for (size_t j = 0; j < columns.size(); ++j) {
      TSREAD_RETURN_IF_ERROR(DecodeColumn(j, k, rows, columns[j], static_cast<uint32_t>(end)));
    }
  }
  if (cut) KeepRowsInRange(*range_, times, columns);
  return absl::OkStatus();
}

absl::StatusOr<bool> AlignedDeviceReader::FilterTakesTail(size_t k, uint32_t rows, std::vector<int64_t>& times,
                                                          std::vector<ColumnVector>& columns) {
  // filter_view_ is page k's still: FilterTakesPage asked about it last.
  if (filter_ == nullptr || !filter_view_.complete || times.size() != rows) return false;
  TSREAD_ASSIGN_OR_RETURN(std::optional<size_t> tail, filter_->TailStart(filter_view_, times));
  if (!tail.has_value() || *tail >= times.size()) return false;
  const uint32_t head = static_cast<uint32_t>(*tail) + 1;  // the tail's first row too: its first values
  for (size_t j = 0; j < columns.size(); ++j) TSREAD_RETURN_IF_ERROR(DecodeColumn(j, k, rows, columns[j], head));
  const auto decode_whole = [&](size_t j) { return DecodeColumn(j, k, rows, columns[j]); };
  TSREAD_ASSIGN_OR_RETURN(bool taken, filter_->TakeTail(filter_view_, times, *tail, columns, decode_whole));
  if (!taken) return false;
  times.resize(*tail);
  for (ColumnVector& column : columns) column.KeepRange(0, *tail);
  return true;
}

absl::Status AlignedDeviceReader::DecodeColumn(size_t j, size_t k, uint32_t rows, ColumnVector& column, uint32_t head) {
  head = std::min(head, rows);
  decoded_[j] = 1;
  column.type = (*columns_)[j].data_type;
  if (!(*columns_)[j].stored) {
    // A TAG/ATTRIBUTE placeholder stays empty; a reused cursor (another scan's projection) may
    // hold values here.
    if (column.size() != 0) column.Clear();
    return absl::OkStatus();
  }
  if (value_chunks_[j] == nullptr) {
    column.Resize(head);
    column.SetAllNull();
    return absl::OkStatus();
  }
  const ChunkData& chunk = *value_chunks_[j];
  return DecodeValuePageHead(chunk.header, chunk.pages[k], rows, head, *limits_, value_scratch_[j], column);
}

}  // namespace tsread
