// GORILLA_V1 value streams, FLOAT and DOUBLE only: the legacy Gorilla variant (format reference
// §9.10; J: encoding.decoder.GorillaDecoderV1, SinglePrecisionDecoderV1, DoublePrecisionDecoderV1).
//
// Wire form: the first value is 4 (FLOAT) / 8 (DOUBLE) bytes of IEEE bits, LITTLE-endian (the one
// little-endian field of the encoding). Then an MSB-first bit stream, per value: '0' = repeat;
// '10' = with lz/tz the leading/trailing zeros of the previous VALUE's bits (not of an XOR), read
// W-lz-tz bits, shift left by tz, XOR into the previous value; '11' = read lz (5 / 6 bits) and len
// (6 / 7 bits), then len bits, shift left by W-lz-len, XOR in. The writer appends NaN and pads;
// these decoders go by count instead.
#ifndef TSREAD_ENCODING_GORILLA_V1_H_
#define TSREAD_ENCODING_GORILLA_V1_H_

#include <cstddef>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread {

// Each decodes exactly `count` values from the start of `stream` into `out` (room for `count`)
// and returns the bytes consumed (a partly used last byte counts). DataLoss if the stream ends
// early or is malformed.
absl::StatusOr<size_t> DecodeGorillaV1Floats(std::string_view stream, size_t count, float* out);
absl::StatusOr<size_t> DecodeGorillaV1Doubles(std::string_view stream, size_t count, double* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_GORILLA_V1_H_
