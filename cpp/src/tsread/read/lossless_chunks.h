// Lossless chunks: whether a chunk's values are the values its statistics describe. A FLOAT or
// DOUBLE chunk written with an encoding that changes values (TS_2DIFF and RLE scale to a
// precision, SPRINTZ and RLBE likewise, format reference §9.5) carries the statistics of the
// values before encoding (§4), which then bound, count and sum other values than a reader
// decodes. PLAIN, GORILLA_V1, GORILLA and CHIMP keep every bit; every other type is exact.
#ifndef TSREAD_READ_LOSSLESS_CHUNKS_H_
#define TSREAD_READ_LOSSLESS_CHUNKS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/chunk_header.h"
#include "tsread/format/timeseries_metadata.h"
#include "tsread/io/buffer.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

// Whether an encoding keeps FLOAT/DOUBLE values bit for bit (§3.1).
bool KeepsFloatsExact(Encoding encoding);

// Whether a loaded chunk header of a series of `type` describes values its statistics hold.
bool HeaderKeepsValuesExact(const ChunkHeader& header, DataType type);

// Whether the chunk at `chunk_offset`, of series `series`, is written with an encoding that keeps
// `series`' values exact (always true but for FLOAT and DOUBLE). Reads the chunk's header (a few
// dozen bytes, into `scratch`: a caller checking many chunks reuses one) the first time `reader`
// is asked, its answer after (TsFileReader::KnownChunkFacts); a header that cannot be read
// gives false (decoding then reports what is wrong).
absl::StatusOr<bool> ChunkKeepsValuesExact(const TsFileReader& reader, const TimeseriesMetadata& series,
                                           int64_t chunk_offset, Buffer& scratch);

}  // namespace tsread

#endif  // TSREAD_READ_LOSSLESS_CHUNKS_H_
