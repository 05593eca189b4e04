// WalkDataSection: a sequential pass over the data section [7, metaOffset) without the index
// (format reference §2.4): chunk groups, chunk headers, page headers, operation-index records.
// Used by `tsread sketch` (and by verification): it reports what is where, not values.
#ifndef TSREAD_READ_DATA_SECTION_WALKER_H_
#define TSREAD_READ_DATA_SECTION_WALKER_H_

#include <cstdint>

#include "absl/status/status.h"
#include "tsread/format/chunk_header.h"
#include "tsread/format/device_id.h"
#include "tsread/format/page_header.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

class DataSectionVisitor {
 public:
  virtual ~DataSectionVisitor() = default;
  // A chunk group header at `offset` (its marker byte) for `device`.
  virtual absl::Status OnChunkGroup(uint64_t offset, const DeviceIdView& device) = 0;
  // A chunk header; its pages follow through OnPage.
  virtual absl::Status OnChunk(const ChunkHeader& chunk) = 0;
  // A page of the last chunk: header and the file offset of its (compressed) body.
  virtual absl::Status OnPage(const ChunkHeader& chunk, const PageHeader& page, uint64_t body_offset) = 0;
  // An OPERATION_INDEX_RANGE record (§2.1).
  virtual absl::Status OnOperationIndexRange(uint64_t offset, int64_t min_plan_index, int64_t max_plan_index) = 0;
  // The SEPARATOR that ends the data section.
  virtual absl::Status OnSeparator(uint64_t offset) = 0;
};

// Walks the data section of `reader`'s file, calling `visitor` in file order. DataLoss at the
// first byte that is not what §2 allows there.
absl::Status WalkDataSection(const TsFileReader& reader, DataSectionVisitor& visitor);

}  // namespace tsread

#endif  // TSREAD_READ_DATA_SECTION_WALKER_H_
