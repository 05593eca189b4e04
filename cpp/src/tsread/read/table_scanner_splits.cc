// TableScanner's splits: what the planned devices' series metadata announces (bytes of their
// projected chunks, rows, time range; format reference §5) and the ways of cutting the devices into
// splits, by bytes, by count, or shrinking for workers that claim them in turn.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "tsread/io/status_macros.h"
#include "tsread/read/table_scanner.h"

namespace tsread {

TableScanner::DeviceSize TableScanner::RowsOfTimeColumn(const TimeseriesMetadata& time) {
  DeviceSize size;
  if (time.statistics.empty()) return size;
  size.rows = time.statistics.count;
  size.min_time = time.statistics.start_time;
  size.max_time = time.statistics.end_time;
  return size;
}

absl::Status TableScanner::ComputeDeviceSizes() const {
  // Every chunk of the planned devices (for chunk sizes), with its device when projected.
  constexpr uint32_t kNotProjected = UINT32_MAX;
  struct Chunk {
    int64_t offset;
    uint32_t device;
  };
  std::vector<Chunk> chunks;
  sizes_.assign(devices_.size(), DeviceSize{});
  // Devices are planned in index order, so their series metadata lie in file order: one read per
  // window instead of a read (a system call) per device.
  ReadAhead index_reads;
  std::vector<TimeseriesMetadata> series;  // parsed in place device after device
  for (size_t d = 0; d < devices_.size(); ++d) {
    TSREAD_RETURN_IF_ERROR(reader_->ReadTimeseriesInto(devices_[d].location, series, &index_reads));
    for (const TimeseriesMetadata& tsm : series) {
      const uint32_t device = IsProjected(tsm) ? static_cast<uint32_t>(d) : kNotProjected;
      for (const ChunkMetadata& chunk : tsm.chunks) chunks.push_back(Chunk{chunk.offset, device});
      if (tsm.is_time_column() && !tsm.statistics.empty()) sizes_[d] = RowsOfTimeColumn(tsm);  // bytes: below
    }
  }
  // A chunk's size: up to the next chunk (or the data section's end), in file order. Writers put
  // chunks in index order, so the list is mostly sorted already.
  const auto by_offset = [](const Chunk& a, const Chunk& b) { return a.offset < b.offset; };
  if (!std::is_sorted(chunks.begin(), chunks.end(), by_offset)) std::sort(chunks.begin(), chunks.end(), by_offset);
  int64_t next = static_cast<int64_t>(reader_->metadata().meta_offset);  // the next greater offset
  for (size_t i = chunks.size(); i-- > 0;) {
    if (i + 1 < chunks.size() && chunks[i + 1].offset > chunks[i].offset) next = chunks[i + 1].offset;
    if (chunks[i].device != kNotProjected) sizes_[chunks[i].device].bytes += static_cast<uint64_t>(next - chunks[i].offset);
  }
  return absl::OkStatus();
}

absl::StatusOr<const std::vector<TableScanner::DeviceSize>*> TableScanner::DeviceSizes() const {
  std::call_once(sizes_once_, [this] { sizes_status_ = ComputeDeviceSizes(); });
  if (!sizes_status_.ok()) return sizes_status_;
  return &sizes_;
}

absl::StatusOr<uint64_t> TableScanner::planned_rows() const {
  TSREAD_ASSIGN_OR_RETURN(const std::vector<DeviceSize>* sizes, DeviceSizes());
  uint64_t rows = 0;
  for (const DeviceSize& size : *sizes) rows += size.rows;
  return rows;
}

absl::StatusOr<ScanSplit> TableScanner::WholeSplit() const {
  ScanSplit whole{0, devices_.size(), 0};
  const TsFileReader::MeasurementFilter time_column = [](std::string_view measurement) { return measurement.empty(); };
  ReadAhead index_reads;
  std::vector<TimeseriesMetadata> series;
  for (const PlannedDevice& device : devices_) {
    TSREAD_RETURN_IF_ERROR(reader_->ReadTimeseriesInto(device.location, series, &index_reads, &time_column));
    for (const TimeseriesMetadata& tsm : series) {
      if (tsm.is_time_column()) AddDeviceRows(RowsOfTimeColumn(tsm), whole);
    }
  }
  return whole;
}

void TableScanner::AddDeviceRows(const DeviceSize& size, ScanSplit& split) {
  if (size.rows == 0) return;
  split.min_time = split.rows == 0 ? size.min_time : std::min(split.min_time, size.min_time);
  split.max_time = split.rows == 0 ? size.max_time : std::max(split.max_time, size.max_time);
  split.rows += size.rows;
}

absl::StatusOr<std::vector<ScanSplit>> TableScanner::Splits(size_t max_splits) const {
  std::vector<ScanSplit> splits;
  if (devices_.empty() || max_splits == 0) return splits;
  TSREAD_ASSIGN_OR_RETURN(const std::vector<DeviceSize>* sizes, DeviceSizes());
  uint64_t total = 0;
  for (const DeviceSize& size : *sizes) total += size.bytes;
  const uint64_t target = std::max<uint64_t>(1, (total + max_splits - 1) / max_splits);
  ScanSplit current;
  for (size_t d = 0; d < devices_.size(); ++d) {
    const uint64_t bytes = (*sizes)[d].bytes;
    if (current.device_count > 0 && current.bytes + bytes > target && splits.size() + 1 < max_splits) {
      splits.push_back(current);
      current = ScanSplit{d, 0, 0};
    }
    ++current.device_count;
    current.bytes += bytes;
    AddDeviceRows((*sizes)[d], current);
  }
  splits.push_back(current);
  return splits;
}

std::vector<ScanSplit> TableScanner::EvenSplits(size_t max_splits) const {
  std::vector<ScanSplit> splits;
  const size_t n = std::min(max_splits, devices_.size());
  for (size_t i = 0; i < n; ++i) {
    const size_t first = devices_.size() * i / n;
    const size_t end = devices_.size() * (i + 1) / n;
    splits.push_back(ScanSplit{first, end - first, 0});
  }
  return splits;
}

std::vector<ScanSplit> TableScanner::ShrinkingSplits(size_t workers) const {
  std::vector<ScanSplit> splits;
  const size_t parts = 2 * std::max<size_t>(workers, 1);
  for (size_t first = 0; first < devices_.size();) {
    const size_t count = std::max<size_t>(1, (devices_.size() - first) / parts);
    splits.push_back(ScanSplit{first, count, 0});
    first += count;
  }
  return splits;
}

}  // namespace tsread
