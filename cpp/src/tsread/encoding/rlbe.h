// RLBE value streams: INT32/DATE, INT64/TIMESTAMP, FLOAT, DOUBLE (format reference §9.13;
// J: encoding.decoder.IntRLBEDecoder, LongRLBEDecoder, FloatRLBEDecoder, DoubleRLBEDecoder).
//
// Wire form: an MSB-first bit stream of blocks. A block starts on a byte boundary with a 32-bit
// value count n (1..10000), then segments until n values: a 6-bit (7-bit for 64-bit types) word
// length, a Fibonacci-coded run length r (Zeckendorf bits least significant first over 1, 2, 3,
// 5, 8, ..., ended by a second consecutive '1'), then r words of that length. The first word of a
// block is the first value, each later word a delta added to the previous value (FLOAT/DOUBLE:
// IEEE bits of a float delta, added in float/double arithmetic as Java does). A word of full
// length (32/64) is stored with its sign bit cleared and gets 2^31 / 2^63 subtracted on reading.
#ifndef TSREAD_ENCODING_RLBE_H_
#define TSREAD_ENCODING_RLBE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread {

// Each decodes exactly `count` values from the start of `stream` into `out` (room for `count`)
// and returns the bytes consumed (a partly used last byte counts). DataLoss if the stream ends
// early or is malformed.
absl::StatusOr<size_t> DecodeRlbeInt32s(std::string_view stream, size_t count, int32_t* out);
absl::StatusOr<size_t> DecodeRlbeInt64s(std::string_view stream, size_t count, int64_t* out);
absl::StatusOr<size_t> DecodeRlbeFloats(std::string_view stream, size_t count, float* out);
absl::StatusOr<size_t> DecodeRlbeDoubles(std::string_view stream, size_t count, double* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_RLBE_H_
