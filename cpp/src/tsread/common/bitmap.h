// Bit ranges of LSB-first bitmaps (Arrow's validity layout, which DuckDB's 64-bit validity words
// share on a little-endian machine): bit r is bit r % 8 of byte r / 8.
#ifndef TSREAD_COMMON_BITMAP_H_
#define TSREAD_COMMON_BITMAP_H_

#include <cstddef>
#include <cstdint>

namespace tsread {

// Copies bits [src_bit, src_bit + count) of `src` to bits [dst_bit, dst_bit + count) of `dst`,
// leaving dst's other bits as they are: bit by bit up to a byte boundary of dst, then a byte at a
// time (each from the two source bytes it straddles), then the last bits.
inline void CopyBits(const uint8_t* src, size_t src_bit, uint8_t* dst, size_t dst_bit, size_t count) {
  auto copy_one = [&] {
    const uint8_t bit = static_cast<uint8_t>(1u << (dst_bit % 8));
    const bool set = (src[src_bit / 8] >> (src_bit % 8)) & 1;
    dst[dst_bit / 8] = set ? static_cast<uint8_t>(dst[dst_bit / 8] | bit) : static_cast<uint8_t>(dst[dst_bit / 8] & ~bit);
    ++src_bit;
    ++dst_bit;
    --count;
  };
  while (count > 0 && dst_bit % 8 != 0) copy_one();
  const unsigned shift = static_cast<unsigned>(src_bit % 8);
  for (; count >= 8; count -= 8, src_bit += 8, dst_bit += 8) {
    const uint8_t* s = src + src_bit / 8;
    // With a shift the 8 bits straddle two source bytes, both inside the range copied.
    dst[dst_bit / 8] = shift == 0 ? s[0] : static_cast<uint8_t>((s[0] >> shift) | (s[1] << (8 - shift)));
  }
  while (count > 0) copy_one();
}

}  // namespace tsread

#endif  // TSREAD_COMMON_BITMAP_H_
