// ChunkCollector: a data-section visitor (data_section_walker.h; format reference §2.4, §3.1)
// that notes where every chunk header is, with its measurement and type, so that `tsread verify`
// (file_verifier.h) can check each ChunkMetadata offset of the index against the data section.
#ifndef TSREAD_CHECK_CHUNK_COLLECTOR_H_
#define TSREAD_CHECK_CHUNK_COLLECTOR_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "tsread/check/data_section_walker.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/chunk_header.h"
#include "tsread/format/device_id.h"
#include "tsread/format/page_header.h"

namespace tsread {
namespace check_internal {

// Chunk offsets found by the sequential walk, with their measurement and type.
class ChunkCollector : public DataSectionVisitor {
 public:
  struct Found {
    std::string measurement;
    DataType type;
  };
  std::map<uint64_t, Found> chunks;

  absl::Status OnChunkGroup(uint64_t, const DeviceIdView&) override;
  absl::Status OnChunk(const ChunkHeader& chunk) override;
  absl::Status OnPage(const ChunkHeader&, const PageHeader&, uint64_t, std::string_view) override;
  absl::Status OnOperationIndexRange(uint64_t, int64_t, int64_t) override;
  absl::Status OnSeparator(uint64_t) override;
};

}  // namespace check_internal
}  // namespace tsread

#endif  // TSREAD_CHECK_CHUNK_COLLECTOR_H_
