// What a file's deletion entries delete (file_deletions.h).
#include "tsread/iotdb/file_deletions.h"

#include <algorithm>

namespace tsread::iotdb {
namespace {

// Whether every chunk of `chunks` starts below `entry`'s file offset (1.x: the entry was recorded
// after all of them were written, so it deletes from each).
bool BelowEveryChunk(const DeletionEntry& entry, const TimeseriesMetadata& chunks) {
  return std::all_of(chunks.chunks.begin(), chunks.chunks.end(),
                     [&](const ChunkMetadata& c) { return *entry.file_offset > c.offset; });
}

// Whether `entry` deletes anything of `measurement` ("" = the time column) of `device` in some
// chunk: its model, a non-empty range, and its path or table condition; a 1.x entry never the time
// column (1.x did not look it up). Which chunks a 1.x entry reaches is the caller's to decide.
bool Reaches(const DeletionEntry& entry, const DeviceId& device, std::string_view measurement, bool table_model) {
  const DeletionEntry::Model model = table_model ? DeletionEntry::Model::kTable : DeletionEntry::Model::kTree;
  if (entry.model != model || entry.start > entry.end) return false;
  if (entry.file_offset.has_value() && measurement.empty()) return false;
  return entry.Affects(device, measurement);
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
  for (const DeletionEntry& entry : entries_) {
    if (!Reaches(entry, device, measurement, table_model)) continue;
    // A 1.x entry between the chunks (SplitsChunks) is applied chunk by chunk (RangesForChunk).
    if (entry.file_offset.has_value() && !BelowEveryChunk(entry, *chunks)) continue;
    out.push_back(TimeRange{entry.start, entry.end});
  }
  return out;
}

bool FileDeletions::SplitsChunks(const DeviceId& device, std::string_view measurement, bool table_model,
                                 const TimeseriesMetadata& chunks) const {
  for (const DeletionEntry& entry : entries_) {
    if (!entry.file_offset.has_value() || !Reaches(entry, device, measurement, table_model)) continue;
    size_t below = 0;
    for (const ChunkMetadata& c : chunks.chunks) below += *entry.file_offset > c.offset ? 1 : 0;
    if (below > 0 && below < chunks.chunks.size()) return true;
  }
  return false;
}

std::vector<TimeRange> FileDeletions::RangesForChunk(const DeviceId& device, std::string_view measurement,
                                                     bool table_model, int64_t chunk_offset) const {
  std::vector<TimeRange> out;
  for (const DeletionEntry& entry : entries_) {
    if (!Reaches(entry, device, measurement, table_model)) continue;
    if (entry.file_offset.has_value() && *entry.file_offset <= chunk_offset) continue;  // written after it
    out.push_back(TimeRange{entry.start, entry.end});
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
