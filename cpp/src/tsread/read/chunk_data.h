// ChunkData: one chunk read from the file — its header and its pages' headers and (still
// compressed) bodies, as views into the chunk's bytes (format reference §3).
#ifndef TSREAD_READ_CHUNK_DATA_H_
#define TSREAD_READ_CHUNK_DATA_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/format/chunk_header.h"
#include "tsread/format/page_header.h"
#include "tsread/io/buffer.h"
#include "tsread/io/read_ahead.h"
#include "tsread/read/memory_budget.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

struct PageRef {
  PageHeader header;
  std::string_view body;  // compressed bytes; empty for an empty page
};

struct ChunkData {
  ChunkHeader header;
  Buffer bytes;  // the header and all pages; views below point into it
  std::vector<PageRef> pages;
};

// Reads the chunk whose marker is at `offset` (a ChunkMetadata offset). Its pages must end
// before the data section does (§13 item 1). A reader loading many chunks in file order passes
// its own ReadAhead (one per thread), which reads the data section a window at a time. With a
// `memory` hold, the chunk's bytes are accounted for (MemoryHold::Grow) before they are allocated,
// and its errors (including the busy status) are returned as they are.
absl::StatusOr<ChunkData> LoadChunk(const TsFileReader& reader, int64_t offset, ReadAhead* ahead = nullptr,
                                    MemoryHold* memory = nullptr);
// LoadChunk into `chunk`, whose page list keeps its capacity: a reader that loads many chunks into
// the same objects allocates nothing per chunk. After an error `chunk` holds no chunk to use.
absl::Status LoadChunkInto(const TsFileReader& reader, int64_t offset, ReadAhead* ahead, MemoryHold* memory,
                           ChunkData& chunk);

}  // namespace tsread

#endif  // TSREAD_READ_CHUNK_DATA_H_
