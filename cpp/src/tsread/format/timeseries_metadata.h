// TimeseriesMetadata and ChunkMetadata (format reference §5): one series of one device, with the
// file offsets and statistics of its chunks.
#ifndef TSREAD_FORMAT_TIMESERIES_METADATA_H_
#define TSREAD_FORMAT_TIMESERIES_METADATA_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/statistics.h"
#include "tsread/io/byte_stream.h"

namespace tsread {

struct ChunkMetadata {
  int64_t offset = 0;  // file offset of the chunk's marker byte
  Statistics statistics;
};

struct TimeseriesMetadata {
  uint8_t type_byte = 0;  // bits 0-5: 0 one chunk, 1 several; 0x80 time column; 0x40 value column
  std::string measurement;  // "" for the aligned time column
  DataType data_type = DataType::kVector;
  Statistics statistics;
  std::vector<ChunkMetadata> chunks;  // in file-offset order

  bool is_time_column() const { return data_type == DataType::kVector; }
};

// Reads one TimeseriesMetadata with its ChunkMetadata list. Chunk offsets must be below
// `data_end` (the SEPARATOR offset), so a chunk can only point into the data section.
absl::StatusOr<TimeseriesMetadata> ReadTimeseriesMetadata(ByteStream& in, uint64_t data_end);

// Reads only the measurement name of the TimeseriesMetadata at the stream's position and skips
// the rest (used to find one series in a run without decoding the others' chunk lists).
absl::StatusOr<std::string_view> ReadTimeseriesMeasurementAndSkip(ByteStream& in);

}  // namespace tsread

#endif  // TSREAD_FORMAT_TIMESERIES_METADATA_H_
