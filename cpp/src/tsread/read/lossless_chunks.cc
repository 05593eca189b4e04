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

namespace {

TsFileReader::ChunkValueFacts FactsOf(const ChunkHeader& header) {
  const std::optional<Encoding> encoding = EncodingFromByte(header.encoding_byte);
  return {header.data_type, encoding.has_value() && KeepsFloatsExact(*encoding)};
}

bool FactsKeepValuesExact(const TsFileReader::ChunkValueFacts& facts, DataType type) {
  if (facts.type != type) return false;
  return (type != DataType::kFloat && type != DataType::kDouble) || facts.floats_exact;
}

}  // namespace

bool HeaderKeepsValuesExact(const ChunkHeader& header, DataType type) {
  return FactsKeepValuesExact(FactsOf(header), type);
}

absl::StatusOr<std::string_view> ChunkHeaderReads::Read(const RandomAccessFile& file, uint64_t offset,
                                                         uint64_t length) {
  if (offset >= file.size()) return std::string_view();
  const bool near = last_offset_.has_value() && offset >= *last_offset_ && offset - *last_offset_ < kWindowBytes;
  last_offset_ = offset;
  length = std::min(length, file.size() - offset);
  if (!near) {
    TSREAD_RETURN_IF_ERROR(file.ReadInto(offset, length, single_));
    return single_.bytes();
  }
  TSREAD_ASSIGN_OR_RETURN(windowed_, window_.Read(file, offset, length, file.size()));
  return windowed_.bytes();
}

absl::StatusOr<bool> ChunkKeepsValuesExact(const TsFileReader& reader, const TimeseriesMetadata& series,
                                           int64_t chunk_offset, ChunkHeaderReads& reads) {
  if (series.data_type != DataType::kFloat && series.data_type != DataType::kDouble) return true;
  if (std::optional<TsFileReader::ChunkValueFacts> known = reader.KnownChunkFacts(chunk_offset); known.has_value()) {
    return FactsKeepValuesExact(*known, series.data_type);
  }
  const uint64_t offset = static_cast<uint64_t>(chunk_offset);
  const uint64_t size = reader.file().size();
  if (offset >= size) return false;
  // Marker, name (varint length + bytes), data size, type, compression, encoding (§3.1): the
  // name's length plus a few varints.
  const uint64_t want = std::min<uint64_t>(size - offset, series.measurement.size() + 32);
  TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, reads.Read(reader.file(), offset, want));
  ByteStream in(bytes, offset);
  absl::StatusOr<ChunkHeader> header = ReadChunkHeader(in);
  // An unreadable header is not remembered: decoding the chunk reports what is wrong with it.
  if (!header.ok()) return false;
  const TsFileReader::ChunkValueFacts facts = FactsOf(*header);
  reader.RememberChunkFacts(chunk_offset, facts);
  return FactsKeepValuesExact(facts, series.data_type);
}

absl::StatusOr<bool> SeriesKeepsValuesExact(const TsFileReader& reader, const TimeseriesMetadata& series,
                                            ChunkHeaderReads& reads) {
  for (const ChunkMetadata& chunk : series.chunks) {
    TSREAD_ASSIGN_OR_RETURN(bool exact, ChunkKeepsValuesExact(reader, series, chunk.offset, reads));
    if (!exact) return false;
  }
  return true;
}

}  // namespace tsread
