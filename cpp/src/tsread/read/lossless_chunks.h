// Lossless chunks: whether a chunk's values are the values its statistics describe. A FLOAT or
// DOUBLE chunk written with an encoding that changes values (TS_2DIFF and RLE scale to a
// precision, SPRINTZ and RLBE likewise, format reference §9.5) carries the statistics of the
// values before encoding (§4), which then bound, count and sum other values than a reader
// decodes. PLAIN, GORILLA_V1, GORILLA and CHIMP keep every bit; every other type is exact.
#ifndef TSREAD_READ_LOSSLESS_CHUNKS_H_
#define TSREAD_READ_LOSSLESS_CHUNKS_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/chunk_header.h"
#include "tsread/format/timeseries_metadata.h"
#include "tsread/io/buffer.h"
#include "tsread/io/read_ahead.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

// Whether an encoding keeps FLOAT/DOUBLE values bit for bit (§3.1).
bool KeepsFloatsExact(Encoding encoding);

// Whether a loaded chunk header of a series of `type` describes values its statistics hold.
bool HeaderKeepsValuesExact(const ChunkHeader& header, DataType type);

// How ChunkKeepsValuesExact reads chunk headers (a few dozen bytes each): one read a header where
// they lie far apart (the benchmark file's devices: 33 KB), and through a window once a header
// follows the previous one within the window's reach (files of small chunks, as IoTDB's flushes
// and `tsread gen --files 100` write: a few hundred bytes apart, 2,000 headers a file, which were
// 2,000 system calls). One per reading thread; ForgetFile before reading another file.
class ChunkHeaderReads {
 public:
  static constexpr uint64_t kWindowBytes = 16 << 10;

  // The `length` bytes at `offset` of `file` (fewer at its end).
  absl::StatusOr<std::string_view> Read(const RandomAccessFile& file, uint64_t offset, uint64_t length);
  void ForgetFile() {
    window_.ForgetFile();
    last_offset_.reset();
  }

 private:
  ReadAhead window_{kWindowBytes};
  Buffer single_;    // a header read alone
  Buffer windowed_;  // a slice of the window, held until the next read
  std::optional<uint64_t> last_offset_;
};

// Whether the chunk at `chunk_offset`, of series `series`, is written with an encoding that keeps
// `series`' values exact (always true but for FLOAT and DOUBLE). Reads the chunk's header through
// `reads` the first time `reader` is asked, its answer after (TsFileReader::KnownChunkFacts); a
// header that cannot be read gives false (decoding then reports what is wrong).
absl::StatusOr<bool> ChunkKeepsValuesExact(const TsFileReader& reader, const TimeseriesMetadata& series,
                                           int64_t chunk_offset, ChunkHeaderReads& reads);
// Whether every chunk of `series` does (ChunkKeepsValuesExact for each, in file order).
absl::StatusOr<bool> SeriesKeepsValuesExact(const TsFileReader& reader, const TimeseriesMetadata& series,
                                            ChunkHeaderReads& reads);

}  // namespace tsread

#endif  // TSREAD_READ_LOSSLESS_CHUNKS_H_
