// The FloatDecoder wrapper (format reference §9.5): FLOAT/DOUBLE values under RLE or TS_2DIFF are
// stored as integers scaled by 10^m (m = the writer's float precision, 2 by default; lossy).
//   uvar m
//   if m == 0x7FFFFFFF: uvar cnt ; u8[cnt/8+1] scaledBitmap ; uvar m
//   if m == 0x7FFFFFFE: uvar cnt ; u8[cnt/8+1] scaledBitmap ; u8[cnt/8+1] rawBitsBitmap ; uvar m
//   then an RLE (§9.3) or TS_2DIFF (§9.4) stream of INT32 (for FLOAT) / INT64 (for DOUBLE)
// value i = bit-cast of the integer if rawBits bit i is set; else the integer itself if a scaled
// bitmap is present and its bit i is clear; else integer / 10^m (m <= 0: / 1), computed in double
// and, for FLOAT, rounded to float afterwards, as Java does. Bitmaps are LSB-first (Java BitMap).
#ifndef TSREAD_ENCODING_FLOAT_SCALED_H_
#define TSREAD_ENCODING_FLOAT_SCALED_H_

#include <cstddef>
#include <string_view>

#include "absl/status/statusor.h"
#include "tsread/common/tsfile_enums.h"

namespace tsread {

// `inner` is the page's encoding, kRle or kTs2Diff (anything else: InvalidArgument). Decodes
// exactly `count` values into `out` and returns the bytes consumed; DataLoss on a truncated or
// malformed header, bitmap or inner stream.
absl::StatusOr<size_t> DecodeScaledFloats(Encoding inner, std::string_view stream, size_t count, float* out);
absl::StatusOr<size_t> DecodeScaledDoubles(Encoding inner, std::string_view stream, size_t count,
                                           double* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_FLOAT_SCALED_H_
