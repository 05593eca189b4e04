// ChunkCollector (chunk_collector.h): chunk offsets from the data-section walk (format reference
// §2.4), for `tsread verify`.
#include "tsread/check/chunk_collector.h"

namespace tsread {
namespace check_internal {

absl::Status ChunkCollector::OnChunkGroup(uint64_t, const DeviceIdView&) { return absl::OkStatus(); }

absl::Status ChunkCollector::OnChunk(const ChunkHeader& chunk) {
  chunks[chunk.offset] = Found{std::string(chunk.measurement), chunk.data_type};
  return absl::OkStatus();
}

absl::Status ChunkCollector::OnPage(const ChunkHeader&, const PageHeader&, uint64_t, std::string_view) {
  return absl::OkStatus();
}

absl::Status ChunkCollector::OnOperationIndexRange(uint64_t, int64_t, int64_t) { return absl::OkStatus(); }

absl::Status ChunkCollector::OnSeparator(uint64_t) { return absl::OkStatus(); }

}  // namespace check_internal
}  // namespace tsread
