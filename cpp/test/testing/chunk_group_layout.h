// Test helper (header-only): the chunk groups of a sealed fixture as its own index describes them
// — where each group starts, its device, its rows (the time chunk's ChunkMetadata count) and
// points per measurement (each value chunk's count) — and the salvage rule applied to a prefix of
// the file. The expectations of the salvage tests come from here, not from salvage's own output.
#ifndef TSREAD_TESTING_CHUNK_GROUP_LAYOUT_H_
#define TSREAD_TESTING_CHUNK_GROUP_LAYOUT_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/check/data_section_walker.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::testing {

struct GroupLayout {
  uint64_t offset = 0;  // its 0x00 marker
  std::string device;   // DeviceId::ToString
  uint64_t rows = 0;    // aligned groups: the time chunk's count
  std::map<std::string, uint64_t> points;  // value series: non-null values in this group
  uint64_t first_chunk = 0;      // offset of its first chunk header (0: none)
  uint64_t first_page_body = 0;  // offset of its first non-empty page body (0: none)
};

struct ChunkGroupLayout {
  std::vector<GroupLayout> groups;  // in file order
  uint64_t separator = 0;           // metaOffset
  uint64_t size = 0;

  // The marker after group i: the next group's, or the separator.
  uint64_t MarkerAfter(size_t i) const { return i + 1 < groups.size() ? groups[i + 1].offset : separator; }
  // The rule: group i is kept from a prefix of `length` bytes iff the marker after it is in the
  // prefix; kept groups are a prefix of the groups.
  size_t KeptGroups(uint64_t length) const {
    size_t k = 0;
    while (k < groups.size() && MarkerAfter(k) < length) ++k;
    return k;
  }
  // Rows (aligned devices) and points per "device" and "device/measurement" of the first k groups.
  std::map<std::string, uint64_t> RowsOfFirst(size_t k) const {
    std::map<std::string, uint64_t> rows;
    for (size_t g = 0; g < k; ++g) rows[groups[g].device] += groups[g].rows;
    return rows;
  }
  std::map<std::string, uint64_t> PointsOfFirst(size_t k) const {
    std::map<std::string, uint64_t> points;
    for (size_t g = 0; g < k; ++g) {
      for (const auto& [name, n] : groups[g].points) points[groups[g].device + "/" + name] += n;
    }
    return points;
  }
};

namespace internal {

class GroupOffsets : public DataSectionVisitor {
 public:
  explicit GroupOffsets(ChunkGroupLayout& layout) : layout_(layout) {}
  absl::Status OnChunkGroup(uint64_t offset, const DeviceIdView& device) override {
    GroupLayout& group = layout_.groups.emplace_back();
    group.offset = offset;
    group.device = device.ToOwned().ToString();
    return absl::OkStatus();
  }
  absl::Status OnChunk(const ChunkHeader& chunk) override {
    if (layout_.groups.back().first_chunk == 0) layout_.groups.back().first_chunk = chunk.offset;
    return absl::OkStatus();
  }
  absl::Status OnPage(const ChunkHeader&, const PageHeader& page, uint64_t body_offset, std::string_view) override {
    if (layout_.groups.back().first_page_body == 0 && !page.is_empty()) layout_.groups.back().first_page_body = body_offset;
    return absl::OkStatus();
  }
  absl::Status OnOperationIndexRange(uint64_t, int64_t, int64_t) override { return absl::OkStatus(); }
  absl::Status OnSeparator(uint64_t offset) override {
    layout_.separator = offset;
    return absl::OkStatus();
  }

 private:
  ChunkGroupLayout& layout_;
};

}  // namespace internal

// The layout of a sealed file: group offsets from a walk of its data section, counts from its index.
inline absl::StatusOr<ChunkGroupLayout> LayoutOf(const TsFileReader& reader) {
  ChunkGroupLayout layout;
  layout.size = reader.file().size();
  internal::GroupOffsets visitor(layout);
  if (absl::Status s = WalkDataSection(reader, visitor); !s.ok()) return s;
  auto group_of = [&layout](int64_t chunk_offset) -> GroupLayout& {
    auto it = std::upper_bound(layout.groups.begin(), layout.groups.end(), static_cast<uint64_t>(chunk_offset),
                               [](uint64_t offset, const GroupLayout& g) { return offset < g.offset; });
    return *std::prev(it);
  };
  for (const TableIndex& index : reader.metadata().table_index) {
    absl::StatusOr<DeviceIterator> devices = reader.Devices(index.name);
    if (!devices.ok()) return devices.status();
    while (true) {
      absl::StatusOr<const DeviceEntry*> device = devices->Next();
      if (!device.ok()) return device.status();
      if (*device == nullptr) break;
      absl::StatusOr<std::vector<TimeseriesMetadata>> series = reader.ReadTimeseries((*device)->location);
      if (!series.ok()) return series.status();
      for (const TimeseriesMetadata& tsm : *series) {
        for (const ChunkMetadata& chunk : tsm.chunks) {
          GroupLayout& group = group_of(chunk.offset);
          if (tsm.is_time_column()) {
            group.rows += chunk.statistics.count;
          } else {
            group.points[tsm.measurement] += chunk.statistics.count;
          }
        }
      }
    }
  }
  return layout;
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_CHUNK_GROUP_LAYOUT_H_
