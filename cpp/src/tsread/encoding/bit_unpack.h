// Bit-packed groups (format reference §9.3): 8 values of W bits, MSB-first and contiguous, so a
// group is exactly W bytes. One specialisation per width turns every shift and offset into a
// constant. Shared by RLE's bit-packed runs (rle.cc) and TS_2DIFF's fused unpack-and-sum (ts2diff.cc).
#ifndef TSREAD_ENCODING_BIT_UNPACK_H_
#define TSREAD_ENCODING_BIT_UNPACK_H_

#include <cstdint>
#include <utility>

#include "tsread/io/endian.h"

namespace tsread::bit_unpack {

template <int kWidth>
constexpr uint64_t LowMask() {
  if constexpr (kWidth == 64) {
    return ~uint64_t{0};
  } else {
    return (uint64_t{1} << kWidth) - 1;
  }
}

// Value kIndex (0..7) of a group whose width is >= 8 bits (so the group has >= 8 bytes). The
// window loaded always lies inside the group: never a byte past the bits the format defines.
template <int kWidth, int kIndex>
inline uint64_t ExtractFromWideGroup(const uint8_t* group) {
  constexpr int kFirstBit = kIndex * kWidth;
  constexpr int kEndBit = kFirstBit + kWidth;
  constexpr int kFirstByte = kFirstBit / 8;
  constexpr int kEndByte = (kEndBit + 7) / 8;
  if constexpr (kEndByte - kFirstByte <= 8) {
    constexpr int kStart = kFirstByte < kWidth - 8 ? kFirstByte : kWidth - 8;
    constexpr int kBitsBelow = (kStart + 8) * 8 - kEndBit;
    return (LoadBigEndian64(group + kStart) >> kBitsBelow) & LowMask<kWidth>();
  } else {
    // Nine bytes (width > 57 starting mid-byte): a 16-byte window; the group has >= 58 bytes.
    constexpr int kStart = kFirstByte < kWidth - 16 ? kFirstByte : kWidth - 16;
    constexpr int kBitsBelow = (kStart + 16) * 8 - kEndBit;
    static_assert(kBitsBelow > 0 && kBitsBelow < 64);
    const uint64_t high = LoadBigEndian64(group + kStart);
    const uint64_t low = LoadBigEndian64(group + kStart + 8);
    return ((high << (64 - kBitsBelow)) | (low >> kBitsBelow)) & LowMask<kWidth>();
  }
}

template <int kWidth, typename Word, int... kIndex>
inline void UnpackWideGroup(const uint8_t* group, Word* out, std::integer_sequence<int, kIndex...>) {
  ((out[kIndex] = static_cast<Word>(ExtractFromWideGroup<kWidth, kIndex>(group))), ...);
}

template <int kWidth, typename Word>
inline void UnpackGroup(const uint8_t* group, Word* out) {
  if constexpr (kWidth == 0) {
    for (int j = 0; j < 8; ++j) out[j] = 0;
  } else if constexpr (kWidth < 8) {
    // The whole group (fewer than 8 bytes) as one big-endian number; value j is the j-th field
    // from the top.
    uint64_t bits = 0;
    for (int i = 0; i < kWidth; ++i) bits = (bits << 8) | group[i];
    for (int j = 0; j < 8; ++j) {
      out[j] = static_cast<Word>((bits >> ((7 - j) * kWidth)) & LowMask<kWidth>());
    }
  } else {
    UnpackWideGroup<kWidth>(group, out, std::make_integer_sequence<int, 8>());
  }
}

// As UnpackGroup for a width below 8, with one 8-byte load instead of kWidth byte loads; the
// caller has checked that 8 bytes are readable at `group` (the bytes past the group are unused).
template <int kWidth, typename Word>
inline void UnpackNarrowGroupWithWideLoad(const uint8_t* group, Word* out) {
  static_assert(kWidth > 0 && kWidth < 8);
  const uint64_t bits = LoadBigEndian64(group) >> (64 - 8 * kWidth);
  for (int j = 0; j < 8; ++j) {
    out[j] = static_cast<Word>((bits >> ((7 - j) * kWidth)) & LowMask<kWidth>());
  }
}

}  // namespace tsread::bit_unpack

#endif  // TSREAD_ENCODING_BIT_UNPACK_H_
