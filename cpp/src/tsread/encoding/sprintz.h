// SPRINTZ value streams: INT32/DATE, INT64/TIMESTAMP, FLOAT, DOUBLE (format reference §9.12;
// J: encoding.decoder.*SprintzDecoder, encoding.fire.IntFire / LongFire).
//
// Wire form: blocks, each led by one header byte. Bit 7 clear: a full block of 9 values, header =
// bitWidth; the first value raw (uvar for INT32, big-endian i64 / f32 / f64 otherwise), then
// bitWidth bytes holding 8 residuals bit-packed MSB-first (the §9.3 group layout). The residuals
// are zig-zag-like mapped and added to the "fire" predictor, which runs on the integer (FLOAT/DOUBLE:
// IEEE bit) values. Bit 7 set: the tail, (header & 0x7F) values in a fresh RLE stream (INT32/INT64,
// §9.3) or a fresh GORILLA stream (FLOAT/DOUBLE, §9.6); it ends the page. Java's arithmetic is
// reproduced exactly, including its lossy residual map (see sprintz.cc).
#ifndef TSREAD_ENCODING_SPRINTZ_H_
#define TSREAD_ENCODING_SPRINTZ_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread {

// Each decodes exactly `count` values from the start of `stream` into `out` (room for `count`)
// and returns the bytes consumed (whole blocks; the tail up to the last byte it used). DataLoss if
// the stream ends early or is malformed.
absl::StatusOr<size_t> DecodeSprintzInt32s(std::string_view stream, size_t count, int32_t* out);
absl::StatusOr<size_t> DecodeSprintzInt64s(std::string_view stream, size_t count, int64_t* out);
absl::StatusOr<size_t> DecodeSprintzFloats(std::string_view stream, size_t count, float* out);
absl::StatusOr<size_t> DecodeSprintzDoubles(std::string_view stream, size_t count, double* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_SPRINTZ_H_
