// SalvageWalker: the data-section visitor behind SalvageDataSection (salvage.h). It follows the
// walk (format reference §2.4) one chunk group at a time, decodes every page of it with the
// encoding its chunk header names (§3.1; aligned time and value pages, §8.2 and §8.3; non-aligned
// pages, §8.1), and keeps the group when the marker that follows it is in the file: it hands the
// group to the caller and records it in the report's devices and totals.
//
// The steps live in two files: salvage_walker.cc (the visitor callbacks, chunk placement, group
// finishing, recording, where the walk stopped) and salvage_walker_pages.cc (decoding and checking
// time, value and non-aligned pages).
#ifndef TSREAD_CHECK_SALVAGE_WALKER_H_
#define TSREAD_CHECK_SALVAGE_WALKER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/check/data_section_walker.h"
#include "tsread/check/salvage.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/chunk_header.h"
#include "tsread/format/device_id.h"
#include "tsread/format/file_layout.h"
#include "tsread/format/page_header.h"
#include "tsread/read/chunk_data.h"
#include "tsread/read/page_decoder.h"

namespace tsread {
namespace check_internal {

class SalvageWalker : public DataSectionVisitor {
 public:
  SalvageWalker(const SalvageOptions& options, const KeptGroupFn& on_kept, SalvageReport& report)
      : options_(options), on_kept_(on_kept), report_(report) {}

  bool callback_failed() const { return callback_failed_; }

  absl::Status OnMarker(uint64_t offset, uint8_t marker) override;
  absl::Status OnChunkGroup(uint64_t offset, const DeviceIdView& device) override;
  absl::Status OnChunk(const ChunkHeader& header) override;
  absl::Status OnPage(const ChunkHeader& header, const PageHeader& page, uint64_t body_offset,
                      std::string_view body) override;
  absl::Status OnOperationIndexRange(uint64_t offset, int64_t, int64_t) override;
  absl::Status OnSeparator(uint64_t offset) override;

  // Fills in where and why the walk stopped, from the walk's result.
  void Finish(const absl::Status& walk, uint64_t file_size);

 private:
  struct PendingTimePage {
    ChunkHeader chunk;
    std::string body;
    PageHeader page;
  };

  // Chunk placement (salvage_walker.cc).

  // What the chunk is within its group; a time chunk makes the group aligned.
  absl::StatusOr<ChunkRole> RoleOf(const ChunkHeader& header);
  // A measurement has one chunk per group.
  absl::Status CheckNewMeasurement(const ChunkHeader& header) const;
  // A device keeps one shape across its groups: aligned or not, one type per measurement (§5: the
  // index lists one TimeseriesMetadata per measurement).
  absl::Status CheckAgainstEarlierGroups(const ChunkHeader& header, ChunkRole role);
  // Appends the chunk, with no pages yet, to the group.
  void AddChunk(const ChunkHeader& header, ChunkRole role);

  // Pages (salvage_walker_pages.cc).

  absl::Status DecodeTimes(const ChunkHeader& header, const PageRef& page, uint64_t count,
                           std::vector<int64_t>& times);
  absl::StatusOr<Encoding> EncodingOf(const ChunkHeader& header);
  // The rows of a time page: its statistics' count or what its stream says (nullopt: it does
  // not say).
  absl::StatusOr<std::optional<uint64_t>> TimePageRows(const ChunkHeader& header, const PageRef& page);
  absl::Status OnTimePage(const ChunkHeader& header, const PageRef& page, SalvagedChunk& chunk);
  // Keeps a time page whose row count only the value pages will state (§8.3), undecoded.
  absl::Status DeferTimePage(const ChunkHeader& header, const PageRef& page);
  // Records a decoded time page as page `k` of the group's time chunk.
  void AddTimePage(std::vector<int64_t> times, SalvagedChunk& time_chunk, size_t k);
  // Decodes the pending single time page with `rows` rows, which a value page states.
  absl::Status ResolvePendingTime(uint32_t rows);
  // Reads the row count a value page stores and decodes the pending time page with it.
  absl::Status ResolvePendingTimeFrom(const ChunkHeader& header, const PageRef& page);
  absl::Status OnValuePage(const ChunkHeader& header, const PageRef& page, size_t k, SalvagedChunk& chunk);
  // The points of a non-empty non-aligned page: its statistics' count or what its time stream says.
  absl::StatusOr<uint64_t> NonAlignedPagePoints(const ChunkHeader& header, const PageRef& page);
  absl::Status OnNonAlignedPage(const ChunkHeader& header, const PageRef& page, SalvagedChunk& chunk);

  // Group finishing and recording (salvage_walker.cc).

  // Whether the group decoded whole: no time page left pending, every value chunk as many pages
  // as its time chunk.
  absl::Status CheckGroupComplete() const;
  // The group's following marker is at `next`: check that it decoded whole, then keep it.
  absl::Status FinishGroup(uint64_t next);
  std::string PendingEncodingName() const;
  // Adds a kept group to the report's devices and totals.
  void Record(const SalvagedGroup& group);
  // The report's entry for the group's device, added if it is new.
  SalvagedDevice& DeviceOf(const SalvagedGroup& group);

  const SalvageOptions& options_;
  const KeptGroupFn& on_kept_;
  SalvageReport& report_;
  std::map<std::string, size_t> device_index_;  // DeviceKey -> report_.devices
  std::optional<SalvagedGroup> group_;
  // Per page of the group's time chunk: where its decoded times are (nullopt while pending).
  std::vector<std::optional<size_t>> time_pages_;
  std::vector<std::vector<int64_t>> decoded_times_;
  std::optional<PendingTimePage> pending_time_;
  uint64_t last_marker_ = kHeadSize;
  uint64_t consumed_end_ = 0;
  bool callback_failed_ = false;
  PageScratch scratch_;
};

}  // namespace check_internal
}  // namespace tsread

#endif  // TSREAD_CHECK_SALVAGE_WALKER_H_
