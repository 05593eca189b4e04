// Encodes one chunk group of an aligned (table-model) device (format reference §2.2, §2.3, §3,
// §8.2, §8.3): the header 0x00 + DeviceID, the time chunk (VECTOR, measurement "") and one value
// chunk per FIELD column. Rows are cut into pages by point count and estimated byte size; all
// columns share the page cuts, as Java's AlignedChunkGroupWriterImpl seals them together.
//   * one page  -> markers 0x85 / 0x45 and no page statistics; several -> 0x81 / 0x41 and every
//     non-empty page carries statistics;
//   * a value page with no non-null row inside a multi-page chunk is the empty page (one 0x00);
//   * a column with no non-null row in the group is an empty value chunk: marker 0x45, dataSize 0.
#ifndef TSREAD_WRITE_CHUNK_GROUP_ENCODER_H_
#define TSREAD_WRITE_CHUNK_GROUP_ENCODER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/device_id.h"
#include "tsread/write/column_values.h"
#include "tsread/write/statistics_builder.h"
#include "tsread/write/ts2diff_encoder.h"

namespace tsread {

// A FIELD column as the writer stores it.
struct WriterColumn {
  std::string name;
  DataType type = DataType::kInt64;
};

// What the index needs of a written chunk (§5 ChunkMetadata).
struct ChunkRecord {
  int64_t offset = 0;  // of the chunk's marker byte
  StatisticsBuilder statistics{DataType::kVector};
};

struct PageLimits {
  size_t max_points = 10000;
  // Uncompressed bytes of any one column's page body (Java: pageSizeInByte, checked per column).
  size_t max_bytes = 64 * 1024;
};

class ChunkGroupEncoder {
 public:
  ChunkGroupEncoder(std::vector<WriterColumn> columns, Compression compression, PageLimits limits)
      : columns_(std::move(columns)), compression_(compression), limits_(limits) {}

  // Appends the chunk group of `device` holding rows [0, rows) to `out`, where `out` will start
  // at file offset `base_offset`. Fills the time chunk's record and one record per column.
  // The caller has validated the input (sizes, types, increasing times).
  absl::Status Encode(const DeviceId& device, const int64_t* times, size_t rows,
                      const std::vector<ColumnValues>& values, uint64_t base_offset, std::string& out,
                      ChunkRecord& time_record, std::vector<ChunkRecord>& column_records);

 private:
  // One encoded page of one column; `uncompressed_size` 0 marks the empty value page.
  struct Page {
    size_t uncompressed_size = 0;
    std::string compressed;
    StatisticsBuilder statistics{DataType::kVector};
  };
  // Column i + 1 of the group (0 = time): the uncompressed body of rows [begin, end) in
  // bodies_[i] (empty when the column has no value there) and its statistics in statistics_[i].
  void EncodeBodies(const int64_t* times, const std::vector<ColumnValues>& values, size_t begin, size_t end);
  template <typename T>
  void EncodeValueBody(size_t slot, DataType type, const ColumnValues& values, const std::vector<T>& data,
                       const int64_t* times, size_t begin, size_t end);
  // Seals the bodies into pages_ (compressing them).
  absl::Status SealPages();
  void AppendChunk(uint8_t single_marker, uint8_t multi_marker, const WriterColumn& column, Encoding encoding,
                   const std::vector<Page>& pages, uint64_t base_offset, std::string& out, ChunkRecord& record) const;

  std::vector<WriterColumn> columns_;
  Compression compression_;
  PageLimits limits_;
  // Per column slot (0 = time): the current page's body and statistics, and the sealed pages.
  std::vector<std::string> bodies_;
  std::vector<StatisticsBuilder> statistics_;
  std::vector<std::vector<Page>> pages_;
  // Per slot: Java's TS_2DIFF packing buffer, which lives as long as the chunk's encoder, and
  // its state before the current page (restored when a page is cut shorter and encoded again).
  std::vector<Ts2DiffPackBuffer> pack_buffers_, pack_buffers_at_page_start_;
  std::vector<int64_t> time_scratch_;
};

}  // namespace tsread

#endif  // TSREAD_WRITE_CHUNK_GROUP_ENCODER_H_
