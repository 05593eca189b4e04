// TimeseriesMetadata and ChunkMetadata (format reference §5): one series of one device, with the
// file offsets and statistics of its chunks.
#ifndef TSREAD_FORMAT_TIMESERIES_METADATA_H_
#define TSREAD_FORMAT_TIMESERIES_METADATA_H_

#include <cstdint>
#include <string>
#include <string_view>
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

// The first fields of a TimeseriesMetadata: enough to decide whether to read the rest.
struct TimeseriesPrefix {
  uint8_t type_byte = 0;
  std::string_view measurement;  // views the stream's bytes
  DataType data_type = DataType::kVector;
};
absl::StatusOr<TimeseriesPrefix> ReadTimeseriesPrefix(ByteStream& in);
// The rest of the TimeseriesMetadata whose prefix was just read from `in`, into `out`: its strings
// and chunk list keep their capacity (and the list's elements theirs), so a reader that parses
// many devices' series into the same objects allocates nothing once they have grown. Chunk offsets
// must be below `data_end`, as below.
absl::Status ReadTimeseriesRest(ByteStream& in, uint64_t data_end, const TimeseriesPrefix& prefix,
                                TimeseriesMetadata& out);
// Skips the rest of the TimeseriesMetadata whose prefix was just read, by its sizes.
absl::Status SkipTimeseriesRest(ByteStream& in, const TimeseriesPrefix& prefix);

// Reads one TimeseriesMetadata with its ChunkMetadata list. Chunk offsets must be below
// `data_end` (the SEPARATOR offset), so a chunk can only point into the data section.
absl::StatusOr<TimeseriesMetadata> ReadTimeseriesMetadata(ByteStream& in, uint64_t data_end);

}  // namespace tsread

#endif  // TSREAD_FORMAT_TIMESERIES_METADATA_H_
