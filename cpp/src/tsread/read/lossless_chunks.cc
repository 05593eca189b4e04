// Lossless chunks (lossless_chunks.h).
#include "tsread/read/lossless_chunks.h"

#include <algorithm>
#include <optional>

#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"

namespace tsread {

bool KeepsFloatsExact(Encoding encoding) {
  return encoding == Encoding::kPlain || encoding == Encoding::kGorillaV1 || encoding == Encoding::kGorilla ||
         encoding == Encoding::kChimp;
}

bool HeaderKeepsValuesExact(const ChunkHeader& header, DataType type) {
  if (header.data_type != type) return false;
  if (type != DataType::kFloat && type != DataType::kDouble) return true;
  const std::optional<Encoding> encoding = EncodingFromByte(header.encoding_byte);
  return encoding.has_value() && KeepsFloatsExact(*encoding);
}

absl::StatusOr<bool> ChunkKeepsValuesExact(const TsFileReader& reader, const TimeseriesMetadata& series,
                                           int64_t chunk_offset, Buffer& scratch) {
  if (series.data_type != DataType::kFloat && series.data_type != DataType::kDouble) return true;
  const uint64_t offset = static_cast<uint64_t>(chunk_offset);
  const uint64_t size = reader.file().size();
  if (offset >= size) return false;
  // Marker, name (varint length + bytes), data size, type, compression, encoding (§3.1): the
  // name's length plus a few varints.
  const uint64_t want = std::min<uint64_t>(size - offset, series.measurement.size() + 32);
  TSREAD_RETURN_IF_ERROR(reader.file().ReadInto(offset, want, scratch));
  ByteStream in(scratch.bytes(), offset);
  absl::StatusOr<ChunkHeader> header = ReadChunkHeader(in);
  return header.ok() && HeaderKeepsValuesExact(*header, series.data_type);
}

}  // namespace tsread
