// GroupBuilder (group_builder.h).
#include "tsread/aggregate/group_builder.h"

#include <algorithm>

#include "tsread/aggregate/exact_statistics.h"
#include "tsread/io/status_macros.h"

namespace tsread {

GroupBuilder::GroupBuilder(const TableAggregate& shape, const AggregateOptions& options)
    : shape_(shape),
      range_(options.time_range),
      buckets_(options.Buckets()),
      by_device_(options.by == AggregateGroupBy::kDevice) {}

void GroupBuilder::StartFile(const TsFileReader& reader, const TableSchema& own) {
  header_reads_.ForgetFile();
  reader_ = &reader;
  own_ = &own;
  file_devices_.clear();
  last_device_ = nullptr;
  last_group_ = nullptr;
}

void GroupBuilder::StartMergedRows(const TableSchema& own) {
  reader_ = nullptr;
  own_ = &own;
  file_devices_.clear();
  last_group_ = nullptr;
  last_device_ = nullptr;
}

bool GroupBuilder::InOneGroup(const Statistics& time) const {
  return range_.Covers(time) && buckets_.Index(time.start_time) == buckets_.Index(time.end_time);
}

absl::StatusOr<bool> GroupBuilder::Exact(const RowStatistics& rows) {
  const size_t n = shape_.columns.size();
  for (size_t j = 0; j < n; ++j) {
    if (rows.series[j] == nullptr || rows.values[j] == nullptr) continue;  // no values here: all null
    if (!ValuesStatisticsAreExact(shape_.columns[j].data_type, rows.series[j]->data_type, *rows.values[j],
                                  *rows.time)) {
      return false;
    }
  }
  // The encodings last: above the page they cost a read of each chunk's header.
  for (size_t j = 0; j < n; ++j) {
    const TimeseriesMetadata* series = rows.series[j];
    if (series == nullptr || rows.values[j] == nullptr) continue;
    if (series->data_type != DataType::kFloat && series->data_type != DataType::kDouble) continue;
    switch (rows.level) {
      case StatisticsLevel::kDevice: {
        TSREAD_ASSIGN_OR_RETURN(bool exact, SeriesKeepsValuesExact(*reader_, *series, header_reads_));
        if (!exact) return false;
        break;
      }
      case StatisticsLevel::kChunkGroup: {
        TSREAD_ASSIGN_OR_RETURN(bool exact, ChunkKeepsValuesExact(*reader_, *series, rows.chunks[j]->offset, header_reads_));
        if (!exact) return false;
        break;
      }
      case StatisticsLevel::kPage: {
        if (!HeaderKeepsValuesExact(*rows.headers[j], series->data_type)) return false;
        break;
      }
    }
  }
  return true;
}

void GroupBuilder::Count(const RowStatistics& rows, bool taken) {
  const size_t n = shape_.columns.size();
  uint64_t units = 0;
  switch (rows.level) {
    case StatisticsLevel::kDevice:
      // Only a device taken whole is counted: one that is not is counted chunk by chunk.
      if (!taken) return;
      units = rows.time_series->chunks.size();
      for (size_t j = 0; j < n; ++j) units += rows.series[j] == nullptr ? 0 : rows.series[j]->chunks.size();
      work_.chunks_from_statistics += units;
      return;
    case StatisticsLevel::kChunkGroup:
      units = 1;
      for (size_t j = 0; j < n; ++j) units += rows.chunks[j] != nullptr;
      (taken ? work_.chunks_from_statistics : work_.chunks_read) += units;
      return;
    case StatisticsLevel::kPage:
      units = 1;
      for (size_t j = 0; j < n; ++j) units += rows.headers[j] != nullptr;
      (taken ? work_.pages_from_statistics : work_.pages_decoded) += units;
      return;
  }
}

absl::StatusOr<bool> GroupBuilder::Take(const RowStatistics& rows) {
  bool taken = rows.complete && InOneGroup(*rows.time);
  if (taken) {
    TSREAD_ASSIGN_OR_RETURN(taken, Exact(rows));
  }
  Count(rows, taken);
  if (!taken) return false;
  GroupAggregate& group = Group(*rows.device, buckets_.Index(rows.time->start_time));
  AddTimes(group, rows.time->count, rows.time->start_time, rows.time->end_time);
  for (size_t j = 0; j < shape_.columns.size(); ++j) {
    if (rows.series[j] != nullptr && rows.values[j] != nullptr) group.columns[j].AddStatistics(*rows.values[j]);
  }
  return true;
}

absl::StatusOr<std::optional<size_t>> GroupBuilder::TailStart(const RowStatistics& rows,
                                                              std::span<const int64_t> times) {
  if (rows.level != StatisticsLevel::kPage || !rows.complete || times.empty()) return std::nullopt;
  // Decoded times that are not the statistics' rows leave the statistics unproven.
  const Statistics& time = *rows.time;
  if (times.size() != time.count || times.front() != time.start_time || times.back() != time.end_time) {
    return std::nullopt;
  }
  if (!range_.Contains(time.end_time)) return std::nullopt;
  int64_t from = range_.start;
  if (buckets_.enabled()) from = std::max(from, buckets_.Start(buckets_.Index(time.end_time)));
  const size_t tail = static_cast<size_t>(std::lower_bound(times.begin(), times.end(), from) - times.begin());
  // A tail of the whole page is Take's to answer; one of a row saves nothing (its row is decoded).
  if (tail == 0 || tail + 1 >= times.size()) return std::nullopt;
  TSREAD_ASSIGN_OR_RETURN(bool exact, Exact(rows));
  if (!exact) return std::nullopt;
  return tail;
}

absl::StatusOr<bool> GroupBuilder::TakeTail(const RowStatistics& rows, std::span<const int64_t> times, size_t tail,
                                            std::vector<ColumnVector>& head,
                                            absl::FunctionRef<absl::Status(size_t)> decode_whole) {
  const size_t n = shape_.columns.size();
  if (head.size() < n) return false;
  tails_.clear();
  for (size_t j = 0; j < n; ++j) {
    tails_.emplace_back(shape_.columns[j].data_type);
    if (rows.series[j] == nullptr || rows.values[j] == nullptr) continue;  // no values in the page
    if (head[j].type != shape_.columns[j].data_type) return false;  // the scan reports it
    ColumnAggregate page(shape_.columns[j].data_type);
    page.AddStatistics(*rows.values[j]);
    std::optional<ColumnAggregate> rest = page.WithoutHead(head[j], times.data(), tail);
    if (rest.has_value()) {
      tails_.back() = *std::move(rest);
      ++work_.page_tails_from_statistics;
      continue;
    }
    // The head leaves this column's tail open (an extreme in it, say: a counter's minimum is its
    // first value): its tail is decoded and aggregated, the other columns' still are not.
    TSREAD_RETURN_IF_ERROR(decode_whole(j));
    tails_.back().AddRows(head[j], times.data(), tail, times.size());
  }
  ++work_.page_tails_from_statistics;  // the time column's: its statistics give the rows and times
  GroupAggregate& group = Group(*rows.device, buckets_.Index(times[tail]));
  AddTimes(group, times.size() - tail, times[tail], times.back());
  for (size_t j = 0; j < n; ++j) group.columns[j].Merge(tails_[j]);
  return true;
}

void GroupBuilder::AddBatch(const TableBatch& batch) {
  const size_t n = batch.num_rows();
  const int64_t* times = batch.times.data();
  for (size_t begin = 0; begin < n;) {
    // The rows of one bucket: times ascend within a batch.
    const int64_t bucket = buckets_.Index(times[begin]);
    size_t end = n;
    if (buckets_.enabled()) {
      end = static_cast<size_t>(std::upper_bound(times + begin, times + n, buckets_.End(bucket)) - times);
    }
    GroupAggregate& group = Group(*batch.device, bucket);
    AddTimes(group, end - begin, times[begin], times[end - 1]);
    for (size_t j = 0; j < group.columns.size(); ++j) group.columns[j].AddRows(batch.columns[j], times, begin, end);
    begin = end;
  }
}

void GroupBuilder::AddTimes(GroupAggregate& group, uint64_t rows, int64_t first, int64_t last) {
  if (group.rows == 0) {
    group.first_time = first;
    group.last_time = last;
  } else {
    group.first_time = std::min(group.first_time, first);
    group.last_time = std::max(group.last_time, last);
  }
  group.rows += rows;
}

size_t GroupBuilder::DeviceOrder(const DeviceId& device) {
  if (!by_device_) return 0;
  auto known = file_devices_.find(&device);
  if (known != file_devices_.end()) return known->second;
  std::string id = device.ToString();
  auto [it, added] = device_order_.emplace(id, devices_.size());
  if (added) {
    Device d;
    d.id = std::move(id);
    // TAG column k of the file's own schema is segment k + 1 (segment 0 is the table).
    const std::vector<std::optional<std::string>>& segments = device.segments();
    d.tags.resize(shape_.tag_columns.size());
    size_t k = 0;
    for (const ColumnSchema& c : own_->columns) {
      if (c.category != ColumnCategory::kTag) continue;
      ++k;
      for (size_t t = 0; t < shape_.tag_columns.size(); ++t) {
        if (shape_.tag_columns[t] == c.name && k < segments.size()) d.tags[t] = segments[k];
      }
    }
    devices_.push_back(std::move(d));
  }
  file_devices_.emplace(&device, it->second);
  return it->second;
}

GroupAggregate& GroupBuilder::Group(const DeviceId& device, int64_t bucket) {
  if (last_group_ != nullptr && last_device_ == &device && last_bucket_ == bucket) return *last_group_;
  const size_t order = DeviceOrder(device);
  auto [it, added] = groups_.try_emplace({order, bucket});
  GroupAggregate& group = it->second;
  if (added) {
    if (by_device_) {
      group.device = devices_[order].id;
      group.tags = devices_[order].tags;
    } else {
      group.tags.resize(shape_.tag_columns.size());
    }
    if (buckets_.enabled()) group.bucket = buckets_.Start(bucket);
    group.columns.reserve(shape_.columns.size());
    for (const ColumnSchema& c : shape_.columns) group.columns.emplace_back(c.data_type);
  }
  last_device_ = &device;
  last_bucket_ = bucket;
  last_group_ = &group;
  return group;
}

std::vector<GroupAggregate> GroupBuilder::TakeGroups() {
  std::vector<GroupAggregate> out;
  out.reserve(groups_.size());
  for (auto& [key, group] : groups_) {
    if (group.rows > 0) out.push_back(std::move(group));
  }
  groups_.clear();
  last_group_ = nullptr;
  return out;
}

}  // namespace tsread
