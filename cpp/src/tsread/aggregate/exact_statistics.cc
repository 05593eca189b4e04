// When statistics answer exactly (exact_statistics.h).
#include "tsread/aggregate/exact_statistics.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "tsread/aggregate/column_aggregate.h"
#include "tsread/format/chunk_header.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"

namespace tsread {

bool KeepsFloatsExact(Encoding encoding) {
  return encoding == Encoding::kPlain || encoding == Encoding::kGorillaV1 || encoding == Encoding::kGorilla ||
         encoding == Encoding::kChimp;
}

bool ValuesStatisticsAreExact(DataType type, DataType series_type, const Statistics& values, const Statistics& time) {
  if (series_type != type) return false;
  if (values.count == 0) return true;
  if (type == DataType::kBlob) return false;
  if (values.count > time.count || values.start_time < time.start_time || values.end_time > time.end_time) return false;
  // A FLOAT/DOUBLE min or max is NaN only when the first value is (NaN never replaces one, nor is
  // replaced): merged with others' statistics it would hide their values, where aggregating the
  // rows in order keeps comparing after a NaN that is not the group's first.
  if ((type == DataType::kFloat || type == DataType::kDouble) &&
      (std::isnan(values.float_min) || std::isnan(values.float_max))) {
    return false;
  }
  return ColumnAggregate(type).StatisticsAreExact(values);
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
  if (!header.ok() || header->data_type != series.data_type) return false;
  const std::optional<Encoding> encoding = EncodingFromByte(header->encoding_byte);
  return encoding.has_value() && KeepsFloatsExact(*encoding);
}

}  // namespace tsread
