#include "tsread/read/chunk_data.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// Enough for a marker, a measurement name of up to ~240 bytes and the rest of the header; a
// longer name costs a second read.
constexpr uint64_t kHeaderProbeSize = 256;

// The bytes [offset, offset + length) of the data section, which ends at `data_end`.
absl::StatusOr<Buffer> ReadData(const TsFileReader& reader, uint64_t offset, uint64_t length, uint64_t data_end,
                                ReadAhead* ahead) {
  if (ahead != nullptr) return ahead->Read(reader.file(), offset, length, data_end);
  return reader.file().Read(offset, length);
}

absl::StatusOr<ChunkHeader> ReadHeaderAt(const TsFileReader& reader, uint64_t offset, uint64_t data_end,
                                         uint64_t probe, ReadAhead* ahead, Buffer& bytes) {
  TSREAD_ASSIGN_OR_RETURN(bytes, ReadData(reader, offset, std::min(probe, data_end - offset), data_end, ahead));
  ByteStream in(bytes.bytes(), offset);
  return ReadChunkHeader(in);
}

// The most bytes a chunk header at `offset` can take, from the measurement-name length declared
// in its first bytes `head`: marker, name length (≤ 5-byte varint), name, data size (≤ 5), type,
// compression, encoding. nullopt if `head` does not even hold the length.
std::optional<uint64_t> HeaderSizeForName(std::string_view head, uint64_t offset) {
  ByteStream in(head, offset);
  if (!in.ReadU8("chunk marker").ok()) return std::nullopt;
  absl::StatusOr<int32_t> name_length = in.ReadSVarInt("chunk measurement id length");  // zig-zag, as strings are
  if (!name_length.ok() || *name_length < 0) return std::nullopt;
  return 1 + 5 + static_cast<uint64_t>(*name_length) + 5 + 3;
}

}  // namespace

absl::Status LoadChunkInto(const TsFileReader& reader, int64_t offset, ReadAhead* ahead, MemoryHold* memory,
                           ChunkData& chunk) {
  chunk.bytes = Buffer();
  chunk.pages.clear();
  const uint64_t data_end = reader.metadata().meta_offset;
  if (offset < static_cast<int64_t>(kHeadSize) || static_cast<uint64_t>(offset) >= data_end) {
    return absl::DataLossError(absl::StrCat("corrupt chunk offset ", offset, ": outside the data section [7, ",
                                            data_end, ")"));
  }
  const uint64_t at = static_cast<uint64_t>(offset);
  Buffer probe;
  absl::StatusOr<ChunkHeader> header = ReadHeaderAt(reader, at, data_end, kHeaderProbeSize, ahead, probe);
  if (!header.ok() && data_end - at > kHeaderProbeSize) {
    // A long measurement name: read as much as its declared length needs (not the rest of the
    // data section, which pread would copy whole).
    std::optional<uint64_t> size = HeaderSizeForName(probe.bytes(), at);
    if (size.has_value() && *size > kHeaderProbeSize) header = ReadHeaderAt(reader, at, data_end, *size, ahead, probe);
  }
  if (!header.ok()) return header.status();
  chunk.header = *header;
  const uint64_t total = chunk.header.header_size + static_cast<uint64_t>(chunk.header.data_size);
  if (total > data_end - at) {
    return absl::DataLossError(absl::StrCat("corrupt chunk header at offset ", at, ": data size ",
                                            chunk.header.data_size, " runs past the data section end ", data_end));
  }
  if (memory != nullptr) TSREAD_RETURN_IF_ERROR(memory->Grow(total));
  if (total <= probe.size()) {
    // A small chunk (tens of rows: IoTDB's flushes write many) is all in the probe, and its
    // header, parsed there, already views the bytes kept.
    probe.KeepPrefix(total);
    chunk.bytes = std::move(probe);
  } else {
    TSREAD_ASSIGN_OR_RETURN(chunk.bytes, ReadData(reader, at, total, data_end, ahead));
    // Re-read the header from the final bytes so that its measurement view points into them.
    ByteStream again(chunk.bytes.bytes(), at);
    TSREAD_ASSIGN_OR_RETURN(chunk.header, ReadChunkHeader(again));
  }
  ByteStream in(chunk.bytes.bytes().substr(chunk.header.header_size), at + chunk.header.header_size);
  while (!in.empty()) {
    PageRef& page = chunk.pages.emplace_back();
    TSREAD_RETURN_IF_ERROR(
        ReadPageHeaderInto(in, chunk.header.data_type, chunk.header.has_page_statistics(), page.header));
    TSREAD_ASSIGN_OR_RETURN(page.body, in.ReadBytes(page.header.compressed_size, "page body"));
  }
  return absl::OkStatus();
}

absl::StatusOr<ChunkData> LoadChunk(const TsFileReader& reader, int64_t offset, ReadAhead* ahead,
                                    MemoryHold* memory) {
  ChunkData chunk;
  TSREAD_RETURN_IF_ERROR(LoadChunkInto(reader, offset, ahead, memory, chunk));
  return chunk;
}

}  // namespace tsread
