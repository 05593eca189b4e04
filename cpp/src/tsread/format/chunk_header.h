// ChunkHeader (format reference §3.1) and the data-section markers (§2.1).
#ifndef TSREAD_FORMAT_CHUNK_HEADER_H_
#define TSREAD_FORMAT_CHUNK_HEADER_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/io/byte_stream.h"

namespace tsread {

// Data-section marker bytes (§2.1).
inline constexpr uint8_t kChunkGroupHeaderMarker = 0x00;
inline constexpr uint8_t kChunkHeaderMarker = 0x01;
inline constexpr uint8_t kSeparatorMarker = 0x02;
inline constexpr uint8_t kOperationIndexRangeMarker = 0x04;
inline constexpr uint8_t kOnlyOnePageChunkHeaderMarker = 0x05;
inline constexpr uint8_t kTimeColumnMask = 0x80;
inline constexpr uint8_t kValueColumnMask = 0x40;

// True for the markers that start a chunk header (0x01/0x05, with or without the masks).
inline bool IsChunkMarker(uint8_t marker) {
  const uint8_t kind = marker & 0x3F;
  return (kind == kChunkHeaderMarker || kind == kOnlyOnePageChunkHeaderMarker) && (marker & 0xC0) != 0xC0;
}

struct ChunkHeader {
  uint64_t offset = 0;        // file offset of the marker byte
  uint32_t header_size = 0;   // bytes from the marker to the first page
  uint8_t marker = 0;
  std::string_view measurement;  // view into the bytes the header was read from
  uint32_t data_size = 0;        // bytes of all pages that follow
  DataType data_type = DataType::kVector;
  uint8_t compression_byte = 0;  // kept raw: an unknown codec is reported when a page is read
  uint8_t encoding_byte = 0;

  // Multi-page chunks carry statistics in every page header (§3.2).
  bool has_page_statistics() const { return (marker & 0x3F) == kChunkHeaderMarker; }
  // The aligned time column is identified by type VECTOR, not by the mask (§13 item 7).
  bool is_time_column() const { return data_type == DataType::kVector; }
};

// Reads a chunk header whose marker byte is the next byte of `in`.
absl::StatusOr<ChunkHeader> ReadChunkHeader(ByteStream& in);

}  // namespace tsread

#endif  // TSREAD_FORMAT_CHUNK_HEADER_H_
