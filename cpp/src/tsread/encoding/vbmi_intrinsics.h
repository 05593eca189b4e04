// The AVX-512 intrinsics of the VBMI blocks (gorilla_blocks.cc, ts2diff_blocks.cc), where they are
// built (common/cpu_dispatch.h: TSREAD_AVX512_VBMI_DISPATCH), and the bit-stream read both make.
// Include it from those .cc files only:
// GCC 12's AVX-512 headers start intrinsics from an "undefined" register, which it then reports as
// maybe uninitialized where they are inlined (GCC bug 105593), so the including file turns that
// warning off; nothing there reads such a value.
#ifndef TSREAD_ENCODING_VBMI_INTRINSICS_H_
#define TSREAD_ENCODING_VBMI_INTRINSICS_H_

#include "tsread/common/cpu_dispatch.h"

#if TSREAD_AVX512_VBMI_DISPATCH
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

namespace tsread {

// Lane j: the 64 bits of `bytes` (64 loaded stream bytes) from bit bit_offsets[j] (< 456) on,
// first one in bit 63 — eight bytes put in the lane big-endian by one byte permute, then shifted
// by the offset's bits within its first byte. Bits past the loaded bytes read as garbage: an
// offset's value must lie within its first 57 bits.
TSREAD_TARGET_AVX512_VBMI inline __m512i StreamWindowsAt(__m512i bytes, __m512i bit_offsets) {
  // Byte k (0 = least significant) of lane j is loaded byte offset_j / 8 + 7 - k; `spread` copies
  // each lane's low byte (its byte offset, < 64) to all eight of its bytes.
  const __m512i spread = _mm512_set4_epi32(0x08080808, 0x08080808, 0, 0);
  const __m512i index = _mm512_add_epi8(_mm512_shuffle_epi8(_mm512_srli_epi64(bit_offsets, 3), spread),
                                        _mm512_set1_epi64(0x0001020304050607));
  return _mm512_sllv_epi64(_mm512_permutexvar_epi8(index, bytes), _mm512_and_si512(bit_offsets, _mm512_set1_epi64(7)));
}

}  // namespace tsread
#endif

#endif  // TSREAD_ENCODING_VBMI_INTRINSICS_H_
