// TS_2DIFF deltas summed in AVX-512 registers (ts2diff_blocks.h).
#include "tsread/encoding/ts2diff_blocks.h"

#include <cstring>

#include "tsread/encoding/vbmi_intrinsics.h"

namespace tsread {

#if TSREAD_AVX512_VBMI_DISPATCH
namespace {

constexpr int kMaxWidth = 57;  // a delta and its bit offset in its first byte fit 8 bytes

// The sums of the groups that fit, written to `out` (64-bit lanes narrowed to Out); *value is the
// running sum in 64 bits (its low bits are a narrower type's: INT32 arithmetic wraps as Java's int).
template <typename Out>
TSREAD_TARGET_AVX512_VBMI size_t SumGroupsIn64(
    const uint8_t* packed, size_t groups, size_t readable, int width, uint64_t min_delta, uint64_t* value,
    Out* out) {
  if (width < 1 || width > kMaxWidth || readable < 64) return 0;
  // Delta j's first bit is j * width: the window from there on, shifted right by 64 - width.
  const __m512i first_bits = _mm512_mullo_epi64(_mm512_set1_epi64(width), _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7));
  const __m128i drop = _mm_cvtsi64_si128(64 - width);
  const __m512i step = _mm512_set1_epi64(static_cast<int64_t>(min_delta));
  const __m512i zero = _mm512_setzero_si512();
  const __m512i last_lane = _mm512_set1_epi64(7);
  __m512i before = _mm512_set1_epi64(static_cast<int64_t>(*value));
  const size_t bytes = static_cast<size_t>(width);
  size_t g = 0;
  for (; g < groups && g * bytes <= readable - 64; ++g) {
    const __m512i loaded = _mm512_loadu_si512(packed + g * bytes);
    const __m512i deltas = _mm512_srl_epi64(StreamWindowsAt(loaded, first_bits), drop);
    // Prefix sum: lane j becomes the sum of steps 0..j.
    __m512i x = _mm512_add_epi64(deltas, step);
    x = _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 7));
    x = _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 6));
    x = _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 4));
    const __m512i sums = _mm512_add_epi64(x, before);
    if constexpr (sizeof(Out) == 8) {
      _mm512_storeu_si512(out + 8 * g, sums);
    } else {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * g), _mm512_cvtepi64_epi32(sums));
    }
    // The next group's base: this group's total broadcast (off the chain) plus this base, so that
    // the chain from group to group is one addition.
    before = _mm512_add_epi64(before, _mm512_permutexvar_epi64(last_lane, x));
  }
  *value = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm512_castsi512_si128(before)));
  return g;
}

// One 64-byte store per register of values: the scalar loop's 16-byte stores were a twentieth of a
// full scan of the benchmark file (its time columns are all width 0). Word is unsigned: the sums
// wrap in its width, as Java's long and int arithmetic.
template <typename Word, typename Out>
TSREAD_TARGET_AVX512_VBMI size_t FillConstantDeltas(Word min_delta, size_t take, Word* value, Out* out) {
  static_assert(sizeof(Word) == sizeof(Out));
  constexpr size_t kLanes = 64 / sizeof(Word);
  typedef Word Lanes __attribute__((vector_size(64)));
  Lanes v;
  for (size_t j = 0; j < kLanes; ++j) v[j] = static_cast<Word>(*value + min_delta * static_cast<Word>(j + 1));
  const Word stride = static_cast<Word>(min_delta * kLanes);
  const size_t whole = take - take % kLanes;
  for (size_t i = 0; i < whole; i += kLanes) {
    std::memcpy(out + i, &v, sizeof(v));
    v += stride;
  }
  *value = static_cast<Word>(*value + min_delta * static_cast<Word>(whole));
  return whole;
}

}  // namespace

size_t FillConstantDeltasAvx512(uint64_t min_delta, size_t take, uint64_t* value, int64_t* out) {
  return FillConstantDeltas(min_delta, take, value, out);
}

size_t FillConstantDeltasAvx512(uint32_t min_delta, size_t take, uint32_t* value, int32_t* out) {
  return FillConstantDeltas(min_delta, take, value, out);
}

size_t SumGroupsVbmi(const uint8_t* packed, size_t groups, size_t readable, int width, uint64_t min_delta,
                     uint64_t* value, int64_t* out) {
  return SumGroupsIn64(packed, groups, readable, width, min_delta, value, out);
}

size_t SumGroupsVbmi(const uint8_t* packed, size_t groups, size_t readable, int width, uint32_t min_delta,
                     uint32_t* value, int32_t* out) {
  uint64_t wide = *value;
  const size_t done = SumGroupsIn64(packed, groups, readable, width, min_delta, &wide, out);
  *value = static_cast<uint32_t>(wide);
  return done;
}
#else
size_t FillConstantDeltasAvx512(uint64_t, size_t, uint64_t*, int64_t*) { return 0; }
size_t FillConstantDeltasAvx512(uint32_t, size_t, uint32_t*, int32_t*) { return 0; }
size_t SumGroupsVbmi(const uint8_t*, size_t, size_t, int, uint64_t, uint64_t*, int64_t*) { return 0; }
size_t SumGroupsVbmi(const uint8_t*, size_t, size_t, int, uint32_t, uint32_t*, int32_t*) { return 0; }
#endif

}  // namespace tsread
