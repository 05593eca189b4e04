// RLE: hybrid run-length / bit-packing (format reference §9.3). Encodes BOOLEAN (as 0/1 ints),
// INT32/DATE and INT64/TIMESTAMP, and is the inner codec of DICTIONARY indices, SPRINTZ tails and
// the FLOAT/DOUBLE FloatDecoder wrapper.
//   package := uvar L ; u8[L] payload         packages follow each other back to back
//   payload := u8 bitWidth ; run*              bitWidth <= 32 (INT32, BOOLEAN) / 64 (INT64)
//   run     := uvar h, h even: h>>1 copies of one value in ceil(bitWidth/8) bytes, LITTLE-endian
//                              for INT32/BOOLEAN but BIG-endian for INT64
//            |         h odd:  h>>1 groups ; u8 lastCount (<= 8) ; groups x bitWidth bytes, each
//                              group 8 values of bitWidth bits MSB-first; last group: lastCount used
// Java reads a package whole, so a package is consumed whole even if `count` ends inside it.
#ifndef TSREAD_ENCODING_RLE_H_
#define TSREAD_ENCODING_RLE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread {

// Each function decodes exactly `count` values from the start of `stream` (one or more packages)
// into `out` and returns the bytes consumed: up to the end of the last package it read from.
// DataLoss on truncated or malformed input or if the packages hold fewer than `count` values.
// With count == 0 nothing is read and 0 is returned.
//
// `stream_offset` is where `stream` starts inside the page's value stream; it is only added to the
// offsets that error messages report. Nested users pass it: DICTIONARY (indices after the
// dictionary), the FloatDecoder wrapper, and SPRINTZ tails, which decode k values of "a fresh RLE
// package" with e.g. `DecodeRleInt32s(page.substr(pos), k, out, pos)` and learn from the result
// how many bytes the package took.
absl::StatusOr<size_t> DecodeRleBooleans(std::string_view stream, size_t count, uint8_t* out,
                                         size_t stream_offset = 0);
absl::StatusOr<size_t> DecodeRleInt32s(std::string_view stream, size_t count, int32_t* out,
                                       size_t stream_offset = 0);
absl::StatusOr<size_t> DecodeRleInt64s(std::string_view stream, size_t count, int64_t* out,
                                       size_t stream_offset = 0);

// Unpacks `groups` bit-packed groups laid out as in §9.3 (8 values of `bit_width` bits, MSB-first,
// contiguous, so each group is exactly `bit_width` bytes) from `in` into out[0, 8 * groups).
// TS_2DIFF (§9.4) and SPRINTZ (§9.12) blocks use the same layout. The caller guarantees that
// groups * bit_width bytes are readable at `in` and that bit_width is in 0..32 (32-bit form) or
// 0..64 (64-bit form); reads stay inside those bytes.
void UnpackBitPackedGroups32(int bit_width, const uint8_t* in, size_t groups, uint32_t* out);
void UnpackBitPackedGroups64(int bit_width, const uint8_t* in, size_t groups, uint64_t* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_RLE_H_
