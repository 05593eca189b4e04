// TS_2DIFF: delta-of-delta blocks (format reference §9.4), the default encoding of time columns and
// of INT32/DATE and INT64/TIMESTAMP values, and an inner codec of the FloatDecoder wrapper (§9.5).
//   block := i32 n ; i32 w ; T minDelta ; T first ; u8[ceil(n*w/8)] packed
//            (T = i32 for INT32/DATE, i64 for INT64/TIMESTAMP/time; everything big-endian)
//   packed = n unsigned w-bit numbers, MSB-first and contiguous (w in 0..32 / 0..64)
//   values: v0 = first ; v_k = v_{k-1} + minDelta + packed_k   (two's-complement wrap-around)
// Blocks follow each other; a full block has n = 128 (129 values), n = 0 (one value) is legal.
// A block is consumed whole even if `count` ends inside it.
#ifndef TSREAD_ENCODING_TS2DIFF_H_
#define TSREAD_ENCODING_TS2DIFF_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread {

// Decode exactly `count` values from the start of `stream` into `out` and return the bytes
// consumed (through the end of the last block read). DataLoss on a truncated or malformed block
// (n < 0, w out of range, packed bytes past the end) or if the blocks hold fewer than `count`
// values. `stream_offset` (where `stream` starts in the page value stream) is only added to the
// offsets in error messages; the FloatDecoder wrapper passes the size of its header.
absl::StatusOr<size_t> DecodeTs2DiffInt32s(std::string_view stream, size_t count, int32_t* out,
                                           size_t stream_offset = 0);
absl::StatusOr<size_t> DecodeTs2DiffInt64s(std::string_view stream, size_t count, int64_t* out,
                                           size_t stream_offset = 0);

}  // namespace tsread

#endif  // TSREAD_ENCODING_TS2DIFF_H_
