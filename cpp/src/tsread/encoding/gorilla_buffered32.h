// GORILLA (format reference §9.6) values of 32 bits (FLOAT, INT32) from a refilled register
// window, several values a step: the fast zone of gorilla.cc for W = 32. Inline templates that
// gorilla.cc compiles into its baseline and BMI2/LZCNT copies (common/cpu_dispatch.h).
#ifndef TSREAD_ENCODING_GORILLA_BUFFERED32_H_
#define TSREAD_ENCODING_GORILLA_BUFFERED32_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "tsread/common/cpu_dispatch.h"
#include "tsread/encoding/bit_reader.h"
#include "tsread/encoding/gorilla_stream.h"

namespace tsread::gorilla_steps {

// Two values of '0' and '10' (both lengths of a '10' are then 2 + S <= 28 and the pair fits the
// 56 bits a refill guarantees) at the top of `window`. The length of the pair is a select among
// four sums on three bits read at fixed offsets (0, 1 and 2 + S) instead of two dependent steps,
// which halves the dependency chain from one value's position to the next. False, with nothing
// written or consumed, when a '11' or a '10' before any '11' is among the two: the one-value
// step handles those.
constexpr uint64_t kMaxPairSig = 26;

template <typename T>
TSREAD_ALWAYS_INLINE bool TakePair32(uint64_t window, uint64_t no_lengths, XorState& s, T* out,
                                     RefillingBitBuffer& r) {
  const uint64_t step = 2 + s.sig;           // length of a '10'
  const uint64_t first = window >> 63;       // value 1 changes
  const uint64_t at_one = (window >> 62) & 1;              // control of value 2 if value 1 is '0'
  const uint64_t at_step = (window >> (63 - step)) & 1;    // ... if value 1 is '10'
  const uint64_t first_mask = 0 - first;
  const uint64_t offset = 1 + ((step - 1) & first_mask);  // where value 2 starts
  const uint64_t second = at_one ^ ((at_one ^ at_step) & first_mask);
  const uint64_t total = offset + 1 + ((step - 1) & (0 - second));
  const uint64_t second_window = window << offset;
  if (__builtin_expect((((window >> 62) == 3) | ((second_window >> 62) == 3) |
                        ((first | second) & no_lengths)) != 0, 0)) {
    return false;
  }
  const uint64_t drop = 64 - s.sig;
  const uint64_t v1 = s.prev ^ ((((window << 2) >> drop) & (0 - first)) << s.trailing);
  const uint64_t v2 = v1 ^ ((((second_window << 2) >> drop) & (0 - second)) << s.trailing);
  out[0] = std::bit_cast<T>(static_cast<uint32_t>(v1));
  out[1] = std::bit_cast<T>(static_cast<uint32_t>(v2));
  s.prev = v2;
  r.Consume(static_cast<unsigned>(total));
  return true;
}

// Two '10' values and the repeats ('0') before each, when the gaps are at most kMaxGap repeats
// and all of it fits the 56 bits a refill guarantees. Rounded FLOAT data is '0' and '10' at random
// with S near 21, so a step takes four values on average, and its dependency chain is two
// leading-zero counts and a shift (lzcnt with BMI2's copy: one cycle each) instead of a control
// bit per value. Returns the number of values written to out[0, that) (0: nothing written or
// consumed, the pair or one-value step takes over); it stores up to out[2 * kMaxGap + 1], so the
// caller leaves room for kChangesRoom values.
constexpr uint64_t kMaxGap = 8;
constexpr size_t kChangesRoom = 2 * kMaxGap + 2;

TSREAD_ALWAYS_INLINE uint64_t LeadingZeros(uint64_t x) {
  return static_cast<uint64_t>(__builtin_clzll(x | 1));  // 63 for 0 and 1: both mean "too many"
}

// Stores `bits` as out[0, kMaxGap + 1), as one or two vector stores.
template <typename T>
TSREAD_ALWAYS_INLINE void FillGap(T* out, uint32_t bits) {
  typedef uint32_t Lanes __attribute__((vector_size(4 * kMaxGap)));
  const Lanes lanes = {bits, bits, bits, bits, bits, bits, bits, bits};
  static_assert(sizeof(lanes) == kMaxGap * sizeof(T));
  std::memcpy(out, &lanes, sizeof(lanes));
  std::memcpy(out + kMaxGap, &bits, sizeof(bits));
}

template <typename T>
TSREAD_ALWAYS_INLINE size_t TakeTwoChanges32(uint64_t window, uint64_t no_lengths, XorState& s, T* out,
                                             RefillingBitBuffer& r) {
  const uint64_t step = 2 + s.sig;  // <= 34
  const uint64_t gap1 = LeadingZeros(window);
  const uint64_t first = window << gap1;  // starts with the '1' of value gap1
  const uint64_t after = first << step;
  const uint64_t gap2 = LeadingZeros(after);
  const uint64_t second = after << gap2;
  const uint64_t total = gap1 + gap2 + 2 * step;
  if (__builtin_expect(((gap1 > kMaxGap) | (gap2 > kMaxGap) | (total > 56) | ((first >> 62) != 2) |
                        ((second >> 62) != 2) | (no_lengths != 0)) != 0, 0)) {
    return 0;
  }
  const uint64_t drop = 64 - s.sig;
  const uint64_t v1 = s.prev ^ (((first << 2) >> drop) << s.trailing);
  const uint64_t v2 = v1 ^ (((second << 2) >> drop) << s.trailing);
  // Later stores overwrite the slack of earlier ones: out[0, gap1) keep prev, out[gap1, gap1 + gap2]
  // are v1, out[gap1 + gap2 + 1] is v2.
  FillGap(out, static_cast<uint32_t>(s.prev));
  FillGap(out + gap1, static_cast<uint32_t>(v1));
  const uint32_t last = static_cast<uint32_t>(v2);
  std::memcpy(out + gap1 + gap2 + 1, &last, sizeof(last));
  s.prev = v2;
  r.Consume(static_cast<unsigned>(total));
  return gap1 + gap2 + 2;
}

// One '10' value and the repeats ('0') before it, for 26 < S <= 32 (TakeTwoChanges32's pair no
// longer fits a refill): a sign change of a FLOAT random walk stores L = 0, and every value until
// the next '11' then takes S = 32 - T; a two-decimal walk's page spends about a seventh of its
// changes so. The chain is one leading-zero count and a shift for the gap and its change, instead
// of a control bit per value. Returns the number of values written to out[0, that) (0: nothing
// written or consumed); it stores up to out[kMaxGap].
template <typename T>
TSREAD_ALWAYS_INLINE size_t TakeChangeAfterGap32(uint64_t window, uint64_t no_lengths, XorState& s, T* out,
                                                 RefillingBitBuffer& r) {
  const uint64_t gap = LeadingZeros(window);
  const uint64_t first = window << gap;  // starts with the '1' of value gap
  const uint64_t total = gap + 2 + s.sig;  // <= 8 + 34: inside the 56 bits of a refill
  if (__builtin_expect(((gap > kMaxGap) | ((first >> 62) != 2) | (no_lengths != 0)) != 0, 0)) return 0;
  const uint64_t v = s.prev ^ (((first << 2) >> (64 - s.sig)) << s.trailing);
  FillGap(out, static_cast<uint32_t>(s.prev));
  const uint32_t bits = static_cast<uint32_t>(v);
  std::memcpy(out + gap, &bits, sizeof(bits));
  s.prev = v;
  r.Consume(static_cast<unsigned>(total));
  return gap + 1;
}

// Values [*i, count) for W = 32 while 8 bytes remain at the next load, without a branch on '0'
// versus '10': rounded FLOAT data mixes the two at random, and a mispredicted branch per value
// costs more than this loop. A 32-bit value takes at most 2 + 10 + 32 = 44 bits, so after a
// Refill() the register window holds the whole value; the dependency chain per value is only
// control bit -> length -> shift, the load for the next refill proceeds meanwhile. Each step
// takes 48 repeats, two changes and their gaps (TakeTwoChanges32) or a pair (TakePair32) for
// S <= 26, one change and its gap (TakeChangeAfterGap32) for a wider S, or else (a '11', a long
// gap) one value.
template <typename T>
TSREAD_ALWAYS_INLINE Stop DecodeBuffered32(BitReader& in, XorState& state, size_t* i, size_t count, T* out) {
  if (in.bytes_ahead() < 8) return Stop::kDone;
  RefillingBitBuffer r(in);
  XorState s = state;
  // All ones until the first '11' stores lengths; a valid S keeps the shifts defined meanwhile
  // (one that allows pairs, so that a page opening with repeats takes them two at a time).
  uint64_t no_lengths = s.sig == 0 ? ~uint64_t{0} : 0;
  if (s.sig == 0) s.sig = kMaxPairSig;
  size_t k = *i;
  Stop stop = Stop::kDone;
  for (; k < count && r.CanRefill(); ++k) {
    r.Refill();
    const uint64_t window = r.window();
    if (__builtin_expect(window < (uint64_t{1} << (64 - kRepeatRun)), 0) && count - k >= kRepeatRun) {
      // kRepeatRun '0's: a value that stays the same (a constant column) costs a store.
      std::fill_n(out + k, kRepeatRun, std::bit_cast<T>(static_cast<uint32_t>(s.prev)));
      r.Consume(kRepeatRun);
      k += kRepeatRun - 1;  // and the loop's ++k
      continue;
    }
    if (s.sig <= kMaxPairSig && count - k >= kChangesRoom) {
      const size_t taken = TakeTwoChanges32(window, no_lengths, s, out + k, r);
      if (taken != 0) {
        k += taken - 1;  // and the loop's ++k
        continue;
      }
    }
    if (s.sig <= kMaxPairSig && count - k >= 2 && TakePair32(window, no_lengths, s, out + k, r)) {
      ++k;  // and the loop's ++k: two values
      continue;
    }
    if (s.sig > kMaxPairSig && count - k > kMaxGap) {
      const size_t taken = TakeChangeAfterGap32(window, no_lengths, s, out + k, r);
      if (taken != 0) {
        k += taken - 1;  // and the loop's ++k
        continue;
      }
    }
    const uint64_t changed = static_cast<uint64_t>(static_cast<int64_t>(window) >> 63);  // '1x'
    uint64_t header = 2;
    if (__builtin_expect((window >> 62) == 3, 0)) {  // '11'
      if (!TakeNewLengths<32>(window, s)) {
        stop = Stop::kBadLengths;
        break;
      }
      no_lengths = 0;
      header = kNewLengthsHeader<32>;
    } else if (__builtin_expect((changed & no_lengths) != 0, 0)) {
      stop = Stop::kNoStoredLengths;
      break;
    }
    const uint64_t len = changed != 0 ? header + s.sig : 1;  // a select, not a branch
    s.prev ^= (((window << header) >> (64 - s.sig)) & changed) << s.trailing;
    out[k] = std::bit_cast<T>(static_cast<uint32_t>(s.prev));
    r.Consume(static_cast<unsigned>(len));
  }
  if (no_lengths) s.sig = 0;
  r.Sync(in);
  state = s;
  *i = k;
  return stop;
}

}  // namespace tsread::gorilla_steps

#endif  // TSREAD_ENCODING_GORILLA_BUFFERED32_H_
