// What a file's deletion entries delete (file_deletions.h).
#include "tsread/iotdb/file_deletions.h"

#include <algorithm>

namespace tsread::iotdb {
namespace {

// The part of `entry`'s range that falls on chunks it touches under 1.x's offset rule: all of it
// when every chunk starts below the entry's file offset, none when no chunk does; otherwise the
// range within the time spans of the chunks it touches, less those of the chunks it does not
// (exact unless a touched and an untouched chunk share times).
std::vector<TimeRange> OffsetRuleRanges(const DeletionEntry& entry, const TimeseriesMetadata& chunks) {
  const int64_t offset = *entry.file_offset;
  size_t touched = 0;
  for (const ChunkMetadata& c : chunks.chunks) touched += offset > c.offset ? 1 : 0;
  if (touched == chunks.chunks.size()) return {TimeRange{entry.start, entry.end}};
  if (touched == 0) return {};
  std::vector<TimeRange> out;
  for (const ChunkMetadata& c : chunks.chunks) {
    if (offset <= c.offset || c.statistics.count == 0) continue;
    TimeRange r{std::max(entry.start, c.statistics.start_time), std::min(entry.end, c.statistics.end_time)};
    for (const ChunkMetadata& other : chunks.chunks) {
      if (offset > other.offset || other.statistics.count == 0) continue;
      // An untouched chunk inside r: keep only the part of r before it (its points stay).
      if (other.statistics.start_time <= r.end && other.statistics.end_time >= r.start) {
        r.end = std::min(r.end, other.statistics.start_time - 1);
      }
    }
    if (r.start <= r.end) out.push_back(r);
  }
  return out;
}

}  // namespace

const TimeseriesMetadata* FindSeries(const std::vector<TimeseriesMetadata>& series, std::string_view measurement) {
  for (const TimeseriesMetadata& s : series) {
    if (measurement.empty() ? s.is_time_column() : (!s.is_time_column() && s.measurement == measurement)) return &s;
  }
  return nullptr;
}

std::vector<TimeRange> FileDeletions::RangesFor(const DeviceId& device, std::string_view measurement,
                                                bool table_model, const TimeseriesMetadata* chunks) const {
  std::vector<TimeRange> out;
  if (chunks == nullptr) return out;
  const DeletionEntry::Model model = table_model ? DeletionEntry::Model::kTable : DeletionEntry::Model::kTree;
  for (const DeletionEntry& entry : entries_) {
    if (entry.model != model || entry.start > entry.end) continue;
    if (entry.file_offset.has_value() && measurement.empty()) continue;  // 1.x: never the time column
    if (!entry.Affects(device, measurement)) continue;
    if (!entry.file_offset.has_value()) {
      out.push_back(TimeRange{entry.start, entry.end});
      continue;
    }
    for (const TimeRange& r : OffsetRuleRanges(entry, *chunks)) out.push_back(r);
  }
  return out;
}

SourceMask FileDeletions::TableMask(const DeviceId& device, const std::vector<TimeseriesMetadata>& series,
                                    const std::vector<ProjectedColumn>& columns) const {
  SourceMask mask;
  if (entries_.empty()) return mask;
  mask.rows = RangesFor(device, "", true, FindSeries(series, ""));
  mask.cells.resize(columns.size());
  for (size_t j = 0; j < columns.size(); ++j) {
    if (columns[j].category != ColumnCategory::kField) continue;
    mask.cells[j] = RangesFor(device, columns[j].name, true, FindSeries(series, columns[j].name));
  }
  return mask;
}

}  // namespace tsread::iotdb
