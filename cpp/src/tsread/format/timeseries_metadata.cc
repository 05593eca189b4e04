#include "tsread/format/timeseries_metadata.h"

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {

absl::StatusOr<TimeseriesPrefix> ReadTimeseriesPrefix(ByteStream& in) {
  TimeseriesPrefix p;
  TSREAD_ASSIGN_OR_RETURN(p.type_byte, in.ReadU8("timeseries metadata type"));
  TSREAD_ASSIGN_OR_RETURN(p.measurement, in.ReadVarString("timeseries measurement id"));
  const uint64_t type_offset = in.offset();
  TSREAD_ASSIGN_OR_RETURN(uint8_t type_byte, in.ReadU8("timeseries data type"));
  std::optional<DataType> type = DataTypeFromByte(type_byte);
  if (!type.has_value()) {
    return absl::UnimplementedError(absl::StrCat("unsupported data type ", type_byte, " at offset ", type_offset,
                                                 " for series \"", ToAbsl(p.measurement), "\""));
  }
  p.data_type = *type;
  return p;
}

absl::Status ReadTimeseriesRest(ByteStream& in, uint64_t data_end, const TimeseriesPrefix& prefix,
                                TimeseriesMetadata& out) {
  out.type_byte = prefix.type_byte;
  out.measurement.assign(prefix.measurement);
  out.data_type = prefix.data_type;
  TSREAD_ASSIGN_OR_RETURN(uint32_t list_size, in.ReadUVarSize("chunk metadata list size"));
  TSREAD_RETURN_IF_ERROR(ReadStatisticsInto(in, out.data_type, out.statistics));
  const uint64_t list_offset = in.offset();
  TSREAD_ASSIGN_OR_RETURN(std::string_view list_bytes, in.ReadBytes(list_size, "chunk metadata list"));
  ByteStream list(list_bytes, list_offset);
  // Statistics per chunk exist only when the series has several chunks (§5): decide by the bit.
  const bool per_chunk_statistics = (out.type_byte & 0x3F) != 0;
  // The chunk list's elements are reused (resized, not cleared), keeping their strings' capacity.
  size_t count = 0;
  while (!list.empty()) {
    if (count == out.chunks.size()) out.chunks.emplace_back();
    ChunkMetadata& chunk = out.chunks[count++];
    const uint64_t entry_offset = list.offset();
    TSREAD_ASSIGN_OR_RETURN(chunk.offset, list.ReadI64("chunk offset"));
    if (chunk.offset < 7 || static_cast<uint64_t>(chunk.offset) >= data_end) {
      return absl::DataLossError(absl::StrCat("corrupt chunk metadata at offset ", entry_offset, ": chunk offset ",
                                              chunk.offset, " is outside the data section [7, ", data_end, ")"));
    }
    if (per_chunk_statistics) {
      TSREAD_RETURN_IF_ERROR(ReadStatisticsInto(list, out.data_type, chunk.statistics));
    } else {
      chunk.statistics = out.statistics;
    }
    if (!per_chunk_statistics && !list.empty()) {
      return list.Corrupt("chunk metadata list", "a single-chunk series lists more than one chunk");
    }
  }
  out.chunks.resize(count);
  return absl::OkStatus();
}

absl::Status SkipTimeseriesRest(ByteStream& in, const TimeseriesPrefix& prefix) {
  TSREAD_ASSIGN_OR_RETURN(uint32_t list_size, in.ReadUVarSize("chunk metadata list size"));
  TSREAD_RETURN_IF_ERROR(SkipStatistics(in, prefix.data_type));
  return in.Skip(list_size, "chunk metadata list");
}

absl::StatusOr<TimeseriesMetadata> ReadTimeseriesMetadata(ByteStream& in, uint64_t data_end) {
  TimeseriesMetadata tsm;
  TSREAD_ASSIGN_OR_RETURN(TimeseriesPrefix prefix, ReadTimeseriesPrefix(in));
  TSREAD_RETURN_IF_ERROR(ReadTimeseriesRest(in, data_end, prefix, tsm));
  return tsm;
}

}  // namespace tsread
