// SalvageWalker (salvage_walker.h), the walk's side: the visitor callbacks, where each chunk may
// stand in its group (format reference §2.3, §5), finishing a group when the marker that follows
// it is in the file (§2.1, §2.4), recording kept groups in the report, and where the walk stopped.
// The page steps are in salvage_walker_pages.cc.
#include "tsread/check/salvage_walker.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/check/salvage_checks.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace check_internal {

absl::Status SalvageWalker::OnMarker(uint64_t offset, uint8_t marker) {
  last_marker_ = offset;
  if (marker == kChunkGroupHeaderMarker || marker == kOperationIndexRangeMarker || marker == kSeparatorMarker) {
    // The marker that follows a group is in the file: the group is complete (if it decoded).
    if (group_.has_value()) return FinishGroup(offset);
  } else if (IsChunkMarker(marker) && !group_.has_value()) {
    return Corrupt(offset, "a chunk header outside any chunk group");
  }
  return absl::OkStatus();
}

absl::Status SalvageWalker::OnChunkGroup(uint64_t offset, const DeviceIdView& device) {
  group_.emplace();
  group_->offset = offset;
  group_->device = device.ToOwned();
  time_pages_.clear();
  decoded_times_.clear();
  pending_time_.reset();
  consumed_end_ = 0;
  return absl::OkStatus();
}

absl::Status SalvageWalker::OnChunk(const ChunkHeader& header) {
  TSREAD_ASSIGN_OR_RETURN(ChunkRole role, RoleOf(header));
  TSREAD_RETURN_IF_ERROR(CheckNewMeasurement(header));
  TSREAD_RETURN_IF_ERROR(CheckAgainstEarlierGroups(header, role));
  AddChunk(header, role);
  return absl::OkStatus();
}

absl::Status SalvageWalker::OnPage(const ChunkHeader& header, const PageHeader& page, uint64_t body_offset,
                                   std::string_view body) {
  SalvagedChunk& chunk = group_->chunks.back();
  const PageRef ref{page, body};
  const size_t k = chunk.page_count++;
  switch (chunk.role) {
    case ChunkRole::kTime: TSREAD_RETURN_IF_ERROR(OnTimePage(header, ref, chunk)); break;
    case ChunkRole::kValue: TSREAD_RETURN_IF_ERROR(OnValuePage(header, ref, k, chunk)); break;
    case ChunkRole::kNonAligned: TSREAD_RETURN_IF_ERROR(OnNonAlignedPage(header, ref, chunk)); break;
  }
  consumed_end_ = body_offset + body.size();
  return absl::OkStatus();
}

absl::Status SalvageWalker::OnOperationIndexRange(uint64_t offset, int64_t, int64_t) {
  // Java's recovery keeps a complete record (TsFileSequenceReader.selfCheck); so does salvage.
  report_.data_end = offset + 17;
  return absl::OkStatus();
}

absl::Status SalvageWalker::OnSeparator(uint64_t offset) {
  report_.stop_offset = offset;
  report_.stop_reason = absl::StrCat("the separator (0x02) at offset ", offset, " ends the data section");
  return absl::OkStatus();
}

void SalvageWalker::Finish(const absl::Status& walk, uint64_t file_size) {
  if (walk.ok()) return;  // OnSeparator said it
  const std::string message(walk.message());
  if (group_.has_value()) {
    report_.stop_offset = group_->offset;
    const std::string group = absl::StrCat("the chunk group at offset ", group_->offset, " (device ",
                                           group_->device.ToString(), ")");
    if (consumed_end_ == file_size && !group_->chunks.empty()) {
      report_.stop_reason = absl::StrCat(group, " is the last thing in the file: nothing confirms that it is "
                                         "complete (more of its chunks may have been lost)");
    } else {
      report_.stop_reason = absl::StrCat(group, " is not kept: ", message);
    }
  } else {
    report_.stop_offset = last_marker_;
    report_.stop_reason = message;
  }
}

absl::StatusOr<ChunkRole> SalvageWalker::RoleOf(const ChunkHeader& header) {
  SalvagedGroup& group = *group_;
  ChunkRole role = ChunkRole::kNonAligned;
  if (header.is_time_column()) {
    if (!group.chunks.empty()) return Corrupt(header.offset, "a time chunk that is not the first chunk of its group");
    role = ChunkRole::kTime;
    group.aligned = true;
  } else if (group.aligned) {
    role = ChunkRole::kValue;
  }
  return role;
}

absl::Status SalvageWalker::CheckNewMeasurement(const ChunkHeader& header) const {
  for (const SalvagedChunk& other : group_->chunks) {
    if (other.role != ChunkRole::kTime && other.measurement == header.measurement) {
      return Corrupt(header.offset, absl::StrCat("a second chunk of measurement ", ToAbsl(header.measurement),
                                                 " in one chunk group"));
    }
  }
  return absl::OkStatus();
}

absl::Status SalvageWalker::CheckAgainstEarlierGroups(const ChunkHeader& header, ChunkRole role) {
  auto found = device_index_.find(DeviceKey(group_->device));
  if (found == device_index_.end()) return absl::OkStatus();
  const SalvagedDevice& device = report_.devices[found->second];
  if (device.aligned != (role != ChunkRole::kNonAligned)) {
    return Corrupt(header.offset, absl::StrCat("device ", group_->device.ToString(), " was ",
                                               device.aligned ? "aligned" : "non-aligned",
                                               " in its earlier chunk groups"));
  }
  if (role == ChunkRole::kTime) return absl::OkStatus();
  for (const SalvagedSeries& series : device.series) {
    if (series.name == header.measurement && series.type != header.data_type) {
      return Corrupt(header.offset, absl::StrCat("measurement ", series.name, " is ",
                                                 ToAbsl(DataTypeName(header.data_type)), " here but ",
                                                 ToAbsl(DataTypeName(series.type)), " in an earlier chunk group"));
    }
  }
  return absl::OkStatus();
}

void SalvageWalker::AddChunk(const ChunkHeader& header, ChunkRole role) {
  SalvagedChunk& chunk = group_->chunks.emplace_back();
  chunk.offset = header.offset;
  chunk.role = role;
  chunk.measurement = std::string(header.measurement);
  chunk.type = header.data_type;
  chunk.marker = header.marker;
  chunk.encoding_byte = header.encoding_byte;
  chunk.compression_byte = header.compression_byte;
  consumed_end_ = header.offset + header.header_size + header.data_size;
}

absl::Status SalvageWalker::CheckGroupComplete() const {
  const SalvagedGroup& group = *group_;
  if (pending_time_.has_value()) {
    return Corrupt(pending_time_->page.offset,
                   absl::StrCat("the single-page time chunk's encoding (", PendingEncodingName(), ") does not "
                                "store its row count and no value page of the group states it"));
  }
  for (size_t c = 1; group.aligned && c < group.chunks.size(); ++c) {
    const SalvagedChunk& chunk = group.chunks[c];
    const size_t pages = chunk.page_count;
    if (pages != 0 && pages != time_pages_.size()) {
      return Corrupt(chunk.offset, absl::StrCat("value chunk ", chunk.measurement, " has ", pages,
                                                " pages, its time chunk ", time_pages_.size()));
    }
  }
  return absl::OkStatus();
}

absl::Status SalvageWalker::FinishGroup(uint64_t next) {
  TSREAD_RETURN_IF_ERROR(CheckGroupComplete());
  SalvagedGroup& group = *group_;
  group.end = next;
  if (on_kept_) {
    if (absl::Status s = on_kept_(group); !s.ok()) {
      callback_failed_ = true;
      return s;
    }
  }
  Record(group);
  report_.data_end = next;
  group_.reset();
  decoded_times_.clear();
  return absl::OkStatus();
}

std::string SalvageWalker::PendingEncodingName() const {
  std::optional<Encoding> encoding = EncodingFromByte(pending_time_->chunk.encoding_byte);
  return encoding.has_value() ? std::string(EncodingName(*encoding)) : "unknown";
}

SalvagedDevice& SalvageWalker::DeviceOf(const SalvagedGroup& group) {
  const std::string key = DeviceKey(group.device);
  auto [it, inserted] = device_index_.emplace(key, report_.devices.size());
  if (inserted) {
    SalvagedDevice& device = report_.devices.emplace_back();
    device.id = group.device;
    device.aligned = group.aligned;
  }
  return report_.devices[it->second];
}

void SalvageWalker::Record(const SalvagedGroup& group) {
  SalvagedDevice& device = DeviceOf(group);
  ++device.groups;
  device.rows += group.rows;
  report_.rows += group.rows;
  ++report_.groups_kept;
  for (const SalvagedChunk& chunk : group.chunks) {
    if (chunk.role == ChunkRole::kTime) continue;
    SalvagedSeries* series = nullptr;
    for (SalvagedSeries& s : device.series) {
      if (s.name == chunk.measurement) series = &s;
    }
    if (series == nullptr) {
      series = &device.series.emplace_back();
      series->name = chunk.measurement;
      series->type = chunk.type;
    }
    series->points += chunk.points;
    report_.points += chunk.points;
  }
}

}  // namespace check_internal
}  // namespace tsread
