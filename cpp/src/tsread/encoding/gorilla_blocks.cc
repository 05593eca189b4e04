// GORILLA 64-bit '10' runs in AVX-512 registers (gorilla_blocks.h).
#include "tsread/encoding/gorilla_blocks.h"

#include "tsread/encoding/vbmi_intrinsics.h"

namespace tsread {

#if TSREAD_AVX512_VBMI_DISPATCH
TSREAD_TARGET_AVX512_VBMI
size_t DecodeReuseBlocksVbmi(const uint8_t* data, size_t size, uint64_t* bit_pos, uint64_t* prev, uint64_t sig,
                             uint64_t trailing, size_t count, void* out) {
  constexpr uint64_t kBlock = 8;
  if (sig == 0 || sig > 55 || size < 64) return 0;
  const uint64_t step = 2 + sig;
  // Lane j's bit offset from the first value's byte is (pos % 8) + j * step.
  const __m512i lane_steps = _mm512_mullo_epi64(_mm512_set1_epi64(static_cast<int64_t>(step)),
                                                _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7));
  const __m128i drop = _mm_cvtsi64_si128(static_cast<int64_t>(64 - sig));
  const __m128i shift = _mm_cvtsi64_si128(static_cast<int64_t>(trailing));
  const __m512i zero = _mm512_setzero_si512();
  const __m512i seven = _mm512_set1_epi64(7);
  __m512i before = _mm512_set1_epi64(static_cast<int64_t>(*prev));
  uint64_t pos = *bit_pos;
  char* const dest = static_cast<char*>(out);
  size_t k = 0;
  while (count - k >= kBlock && (pos >> 3) <= size - 64) {
    const __m512i bytes = _mm512_loadu_si512(data + (pos >> 3));
    const __m512i offsets = _mm512_add_epi64(_mm512_set1_epi64(static_cast<int64_t>(pos & 7)), lane_steps);
    // Each lane: the stream bits from its value's control bits on.
    const __m512i window = StreamWindowsAt(bytes, offsets);
    if (_mm512_cmpneq_epi64_mask(_mm512_srli_epi64(window, 62), _mm512_set1_epi64(2)) != 0) break;  // not all '10'
    __m512i x = _mm512_sll_epi64(_mm512_srl_epi64(_mm512_slli_epi64(window, 2), drop), shift);
    // Prefix XOR: lane j becomes x_0 ^ ... ^ x_j.
    x = _mm512_xor_si512(x, _mm512_alignr_epi64(x, zero, 7));
    x = _mm512_xor_si512(x, _mm512_alignr_epi64(x, zero, 6));
    x = _mm512_xor_si512(x, _mm512_alignr_epi64(x, zero, 4));
    const __m512i values = _mm512_xor_si512(x, before);
    _mm512_storeu_si512(dest + k * 8, values);
    before = _mm512_permutexvar_epi64(seven, values);
    k += kBlock;
    pos += kBlock * step;
  }
  *bit_pos = pos;
  *prev = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm512_castsi512_si128(before)));
  return k;
}
#else
size_t DecodeReuseBlocksVbmi(const uint8_t*, size_t, uint64_t*, uint64_t*, uint64_t, uint64_t, size_t, void*) {
  return 0;
}
#endif

}  // namespace tsread
