// WalkDataSection: a sequential pass over the data section without the index (format reference
// §2.4): chunk groups, chunk headers, page headers, operation-index records. Used by `tsread
// sketch` and verification (sealed files: [7, metaOffset]) and by salvage (unsealed files: from 7
// to wherever the bytes stop making sense). It reports what is where, not values.
//
// Memory: the walk reads through a bounded window (io/file_window.h) that holds one chunk (its
// header and pages) at a time plus a read-ahead, never the whole range: what it holds at once is
// set by the largest chunk of the file (a chunk group's chunks are visited one after the other),
// not by the file's size. With a memory budget the window is accounted in it, and a chunk that
// alone needs more than the budget stops the walk with ResourceExhausted.
#ifndef TSREAD_CHECK_DATA_SECTION_WALKER_H_
#define TSREAD_CHECK_DATA_SECTION_WALKER_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/status/status.h"
#include "tsread/format/chunk_header.h"
#include "tsread/format/device_id.h"
#include "tsread/format/page_header.h"
#include "tsread/io/random_access_file.h"
#include "tsread/read/memory_budget.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

class DataSectionVisitor {
 public:
  virtual ~DataSectionVisitor() = default;
  // A marker byte at `offset`, before what follows it is read (salvage: a complete chunk group is
  // one whose following marker is in the file). The default does nothing.
  virtual absl::Status OnMarker(uint64_t /*offset*/, uint8_t /*marker*/) { return absl::OkStatus(); }
  // A chunk group header at `offset` (its marker byte) for `device`.
  virtual absl::Status OnChunkGroup(uint64_t offset, const DeviceIdView& device) = 0;
  // A chunk header; its pages follow through OnPage.
  virtual absl::Status OnChunk(const ChunkHeader& chunk) = 0;
  // A page of the last chunk: header and its (compressed) body, which starts at file offset
  // `body_offset`. `body` is valid during the call only.
  virtual absl::Status OnPage(const ChunkHeader& chunk, const PageHeader& page, uint64_t body_offset,
                              std::string_view body) = 0;
  // An OPERATION_INDEX_RANGE record (§2.1).
  virtual absl::Status OnOperationIndexRange(uint64_t offset, int64_t min_plan_index, int64_t max_plan_index) = 0;
  // The SEPARATOR that ends the data section.
  virtual absl::Status OnSeparator(uint64_t offset) = 0;
};

// The bytes a walk covers: [kHeadSize, end) of a file of `version`. When `separator_offset` is
// set (a sealed file's metaOffset) a SEPARATOR anywhere else is corrupt; when it is not (an
// unsealed file) the first SEPARATOR ends the walk.
struct DataRange {
  uint8_t version = 4;
  uint64_t end = 0;
  std::optional<uint64_t> separator_offset;
};

struct WalkOptions {
  // 4 MiB: a few chunk groups of a typical file (the 1000-device benchmark file's are ~0.7 MB),
  // so that the walk reads in large sequential requests, one per few groups.
  static constexpr uint64_t kDefaultReadAheadBytes = uint64_t{4} << 20;

  // Bytes read beyond the chunk the walk needs next (cut to fit `memory_budget`).
  uint64_t read_ahead_bytes = kDefaultReadAheadBytes;
  // When set, the window is accounted in it (its peak() is then the walk's most bytes held at
  // once) and no window exceeds its limit: a chunk (or header) that alone needs more stops the
  // walk with ResourceExhausted naming the offset and the bytes.
  MemoryBudget* memory_budget = nullptr;
};

// Walks `range` of `file`, calling `visitor` in file order, until the SEPARATOR (OK) or the first
// byte that is not what §2 allows there (DataLoss naming the offset), including bytes that end
// before the SEPARATOR does. A visitor error stops the walk and is returned as it is. The bytes
// passed to the visitor (device ids, chunk header strings, page bodies) are valid during the call.
absl::Status WalkDataSection(const RandomAccessFile& file, const DataRange& range, DataSectionVisitor& visitor,
                             const WalkOptions& options = {});

// Walks the data section of `reader`'s sealed file, [7, metaOffset].
absl::Status WalkDataSection(const TsFileReader& reader, DataSectionVisitor& visitor,
                             const WalkOptions& options = {});

}  // namespace tsread

#endif  // TSREAD_CHECK_DATA_SECTION_WALKER_H_
