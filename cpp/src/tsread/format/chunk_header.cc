#include "tsread/format/chunk_header.h"

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {

absl::StatusOr<ChunkHeader> ReadChunkHeader(ByteStream& in) {
  ChunkHeader h;
  h.offset = in.offset();
  const size_t start = in.position();
  TSREAD_ASSIGN_OR_RETURN(h.marker, in.ReadU8("chunk marker"));
  if (!IsChunkMarker(h.marker)) {
    return absl::DataLossError(absl::StrCat("corrupt chunk header at offset ", h.offset, ": marker 0x",
                                            absl::Hex(h.marker), " is not a chunk marker"));
  }
  TSREAD_ASSIGN_OR_RETURN(h.measurement, in.ReadVarString("chunk measurement id"));
  TSREAD_ASSIGN_OR_RETURN(h.data_size, in.ReadUVarSize("chunk data size"));
  const uint64_t type_offset = in.offset();
  TSREAD_ASSIGN_OR_RETURN(uint8_t type_byte, in.ReadU8("chunk data type"));
  std::optional<DataType> type = DataTypeFromByte(type_byte);
  if (!type.has_value()) {
    return absl::UnimplementedError(absl::StrCat("unsupported data type ", type_byte, " at offset ", type_offset,
                                                 " in the chunk header of \"", ToAbsl(h.measurement), "\""));
  }
  h.data_type = *type;
  TSREAD_ASSIGN_OR_RETURN(h.compression_byte, in.ReadU8("chunk compression type"));
  TSREAD_ASSIGN_OR_RETURN(h.encoding_byte, in.ReadU8("chunk encoding"));
  h.header_size = static_cast<uint32_t>(in.position() - start);
  return h;
}

}  // namespace tsread
