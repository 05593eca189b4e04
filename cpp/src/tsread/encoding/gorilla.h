// GORILLA (v2) value streams: INT32/DATE, INT64/TIMESTAMP, FLOAT, DOUBLE (format reference §9.6;
// J: encoding.decoder.GorillaDecoderV2 and its Int/Long/SinglePrecision/DoublePrecision subclasses).
//
// Wire form: an MSB-first bit stream over W-bit words (W = 32 for INT32/FLOAT, 64 for INT64/DOUBLE;
// floats travel as raw IEEE bits). The first value is W raw bits. Each later value starts with a
// control prefix: '0' = same as the previous value; '10' = XOR in (W-L-T) bits shifted left by T,
// reusing the stored L (leading zeros) and T (trailing zeros); '11' = read a new L (5/6 bits) and
// S-1 (5/6 bits), set T = W-L-S, then XOR in S bits shifted left by T. The writer ends the stream
// with a sentinel value, byte padding and one extra byte; these decoders go by count instead, since
// a real value may equal the sentinel.
#ifndef TSREAD_ENCODING_GORILLA_H_
#define TSREAD_ENCODING_GORILLA_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread {

// Each decodes exactly `count` values from the start of `stream` into `out` (room for `count`)
// and returns the bytes consumed (a partly used last byte counts). DataLoss if the stream ends
// early or is malformed.
absl::StatusOr<size_t> DecodeGorillaInt32s(std::string_view stream, size_t count, int32_t* out);
absl::StatusOr<size_t> DecodeGorillaInt64s(std::string_view stream, size_t count, int64_t* out);
absl::StatusOr<size_t> DecodeGorillaFloats(std::string_view stream, size_t count, float* out);
absl::StatusOr<size_t> DecodeGorillaDoubles(std::string_view stream, size_t count, double* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_GORILLA_H_
