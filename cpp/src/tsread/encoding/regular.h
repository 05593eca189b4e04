// REGULAR (format reference §9.9), for INT32/DATE and INT64/TIMESTAMP series on a fixed grid.
//   block := u8 hasMissing ; [ i32 L ; u8[L] bitmap ]   (bitmap only if hasMissing == 1;
//                                                        java.util.BitSet bytes, LSB-first)
//            i32 n ; T minDelta ; T first              (T = i32 / i64, big-endian)
// Grid g_k = first + k * minDelta (wrapping), k = 0..n-1. Without missing points the block holds
// all n grid values; with them (Java RegularDataDecoder) g_0 and then g_k for every set bit k in
// 1..n-1, where bit n-1 must be set. Blocks follow each other until the stream ends.
#ifndef TSREAD_ENCODING_REGULAR_H_
#define TSREAD_ENCODING_REGULAR_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread {

// Decode exactly `count` values into `out` and return the bytes consumed (whole blocks). DataLoss
// on truncated or malformed blocks (n < 1, bad bitmap length, last grid point not marked) or if
// the blocks hold fewer than `count` values.
absl::StatusOr<size_t> DecodeRegularInt32s(std::string_view stream, size_t count, int32_t* out);
absl::StatusOr<size_t> DecodeRegularInt64s(std::string_view stream, size_t count, int64_t* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_REGULAR_H_
