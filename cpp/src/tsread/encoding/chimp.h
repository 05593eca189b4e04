// CHIMP value streams: INT32/DATE, INT64/TIMESTAMP, FLOAT, DOUBLE (format reference §9.11;
// J: encoding.decoder.IntChimpDecoder, LongChimpDecoder, SinglePrecisionChimpDecoder,
// DoublePrecisionChimpDecoder).
//
// Wire form: an MSB-first bit stream of W-bit words (W = 32 / 64, floats as raw IEEE bits) with a
// ring of the last N values (N = 64 / 128). The first value is W raw bits. Each later value starts
// with 2 control bits: '00' idx = a repeat of ring[idx]; '01' idx, lead code, sig (0 means W) =
// ring[idx] XOR sig bits shifted up by T = W - sig - LEAD[code]; '10' = previous XOR (W - L) bits
// with the stored L; '11' lead code = store L = LEAD[code], then previous XOR (W - L) bits.
// LEAD = {0, 8, 12, 16, 18, 20, 22, 24}. The writer ends with a sentinel value (INT_MIN /
// LONG_MIN / NaN bits) and padding; these decoders go by count instead.
#ifndef TSREAD_ENCODING_CHIMP_H_
#define TSREAD_ENCODING_CHIMP_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread {

// Each decodes exactly `count` values from the start of `stream` into `out` (room for `count`)
// and returns the bytes consumed (a partly used last byte counts). DataLoss if the stream ends
// early or is malformed.
absl::StatusOr<size_t> DecodeChimpInt32s(std::string_view stream, size_t count, int32_t* out);
absl::StatusOr<size_t> DecodeChimpInt64s(std::string_view stream, size_t count, int64_t* out);
absl::StatusOr<size_t> DecodeChimpFloats(std::string_view stream, size_t count, float* out);
absl::StatusOr<size_t> DecodeChimpDoubles(std::string_view stream, size_t count, double* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_CHIMP_H_
