// PLAIN (format reference §9.2): the values one after another, no header.
//   BOOLEAN       u8 per value, non-zero = true
//   INT32, DATE   svar: a zig-zag LEB128 varint (§0), NOT four bytes
//   INT64, TIME   i64 big-endian
//   FLOAT/DOUBLE  f32 / f64 big-endian IEEE-754
//   binary        svar length + that many bytes (a negative length is corrupt)
// This header also holds the §0 varint primitives (uvar, zig-zag) that the other decoders of this
// folder read inside their hot loops.
#ifndef TSREAD_ENCODING_PLAIN_H_
#define TSREAD_ENCODING_PLAIN_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread {

// Each function decodes exactly `count` values from the start of `stream` into `out` (room for
// `count` values) and returns the bytes consumed; DataLoss (with the stream offset) when the stream
// is truncated or malformed. Binary values are views into `stream`.
absl::StatusOr<size_t> DecodePlainBooleans(std::string_view stream, size_t count, uint8_t* out);
absl::StatusOr<size_t> DecodePlainInt32s(std::string_view stream, size_t count, int32_t* out);
absl::StatusOr<size_t> DecodePlainInt64s(std::string_view stream, size_t count, int64_t* out);
absl::StatusOr<size_t> DecodePlainFloats(std::string_view stream, size_t count, float* out);
absl::StatusOr<size_t> DecodePlainDoubles(std::string_view stream, size_t count, double* out);
absl::StatusOr<size_t> DecodePlainBinaries(std::string_view stream, size_t count, std::string_view* out);

// --- §0 varint primitives -------------------------------------------------------------------

// Parses a `uvar` (unsigned LEB128, least-significant group first) of at most 5 bytes from
// [p, end). As ByteStream::ReadUVarInt, a 5th byte may only carry the 4 bits that still fit (Java
// would silently drop the rest; no Java writer produces them). Returns the byte after the varint,
// or nullptr if `end` comes first or the varint does not fit in 32 bits.
inline const uint8_t* ParseUVarInt32(const uint8_t* p, const uint8_t* end, uint32_t* out) {
  // One-byte varints dominate (small lengths, counts, run headers).
  if (p < end && *p < 0x80) {
    *out = *p;
    return p + 1;
  }
  if (end - p >= 5) {
    // Room for the longest varint: no bounds checks inside (a hot path of PLAIN INT32 and ZIGZAG).
    // (Measured: this beats a branch-free decode even on random lengths, whose every step would
    // sit on the loop's dependency chain through `p`.)
    uint32_t value = p[0] & 0x7Fu;
    uint32_t b = p[1];
    value |= (b & 0x7F) << 7;
    if (b < 0x80) {
      *out = value;
      return p + 2;
    }
    b = p[2];
    value |= (b & 0x7F) << 14;
    if (b < 0x80) {
      *out = value;
      return p + 3;
    }
    b = p[3];
    value |= (b & 0x7F) << 21;
    if (b < 0x80) {
      *out = value;
      return p + 4;
    }
    b = p[4];
    if (b > 0x0F) return nullptr;
    *out = value | (b << 28);
    return p + 5;
  }
  uint32_t value = 0;
  for (int shift = 0; shift <= 28; shift += 7) {
    if (p == end) return nullptr;
    const uint32_t b = *p++;
    if (shift == 28 && b > 0x0F) return nullptr;
    value |= (b & 0x7F) << shift;
    if (b < 0x80) {
      *out = value;
      return p;
    }
  }
  return nullptr;  // not reached: a 5th byte either ends the varint or fails the check above
}

// The 64-bit form (at most 10 bytes; the 10th may only carry the one bit that still fits), used by
// ZIGZAG for INT64 (§9.8).
inline const uint8_t* ParseUVarInt64(const uint8_t* p, const uint8_t* end, uint64_t* out) {
  if (p < end && *p < 0x80) {
    *out = *p;
    return p + 1;
  }
  uint64_t value = 0;
  for (int shift = 0; shift <= 63; shift += 7) {
    if (p == end) return nullptr;
    const uint64_t b = *p++;
    if (shift == 63 && b > 0x01) return nullptr;
    value |= (b & 0x7F) << shift;
    if (b < 0x80) {
      *out = value;
      return p;
    }
  }
  return nullptr;  // not reached
}

// Zig-zag decoding (§0 `svar`): u = (v << 1) ^ (v >> 31)  =>  v = (u >>> 1) ^ -(u & 1).
inline int32_t ZigZagDecode32(uint32_t u) { return static_cast<int32_t>((u >> 1) ^ (0u - (u & 1u))); }
inline int64_t ZigZagDecode64(uint64_t u) {
  return static_cast<int64_t>((u >> 1) ^ (uint64_t{0} - (u & 1u)));
}

}  // namespace tsread

#endif  // TSREAD_ENCODING_PLAIN_H_
