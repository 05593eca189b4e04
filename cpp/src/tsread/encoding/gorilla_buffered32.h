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

// A valid S for the stretch before the first '11' stores lengths: it keeps the one-value step's
// shifts defined while nothing may use it (a '10' there is an error).
constexpr uint64_t kPlaceholderSig = 26;

// The repeats ('0') before a '10' value are at most kMaxGap in a step: a gap is filled with
// FillGap's fixed-size stores.
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

// A '10' value and the repeats ('0') before it, then a second such gap and change when it fits
// too: at most kMaxGap repeats each, and both inside the 56 bits a refill guarantees. Rounded
// FLOAT data is '0' and '10' at random with S near 21 (a step takes four values on average) and
// S up to 32 after a sign change (one change and its gap a step). One step kind for every S: the
// loop used to choose among three by S, and for S 24..26 the choice was a coin toss. The step's
// dependency chain is two leading-zero counts and a few shifts; the early return (a '11', a '10'
// before any '11') is rarely taken. `gap1` is LeadingZeros(window), at most kMaxGap: the caller
// counted it to take longer gaps itself. Returns the number of values written to out[0, that) (0:
// nothing written or consumed, the one-value step takes over); it stores up to
// out[2 * kMaxGap + 1], so the caller leaves room for kChangesRoom values.
template <typename T>
TSREAD_ALWAYS_INLINE size_t TakeChanges32(uint64_t window, uint64_t gap1, uint64_t no_lengths, XorState& s, T* out,
                                          RefillingBitBuffer& r) {
  const uint64_t step = 2 + s.sig;  // <= 34
  const uint64_t first = window << gap1;  // starts with the '1' of value gap1
  if (__builtin_expect((((first >> 62) != 2) | (no_lengths != 0)) != 0, 0)) return 0;
  const uint64_t after = first << step;  // gap1 + step <= 42 bits in: inside the refill
  const uint64_t gap2 = LeadingZeros(after);
  const uint64_t second = after << gap2;
  const uint64_t one_total = gap1 + step;
  const uint64_t two_total = one_total + gap2 + step;
  const uint64_t drop = 64 - s.sig;
  const uint64_t v1 = s.prev ^ (((first << 2) >> drop) << s.trailing);
  // Later stores overwrite the slack of earlier ones: out[0, gap1) keep prev, out[gap1, gap1 +
  // gap2] are v1, out[gap1 + gap2 + 1] is v2.
  FillGap(out, static_cast<uint32_t>(s.prev));
  FillGap(out + gap1, static_cast<uint32_t>(v1));
  // Usually taken. A branch, not selects: predicted, it lets the next step start before this
  // one's length is known (selects measured 20 % slower, docs/benchmarks.md session 22).
  if (__builtin_expect((gap2 <= kMaxGap) & (two_total <= 56) & ((second >> 62) == 2), 1)) {
    const uint64_t v2 = v1 ^ (((second << 2) >> drop) << s.trailing);
    const uint32_t bits = static_cast<uint32_t>(v2);
    std::memcpy(out + gap1 + gap2 + 1, &bits, sizeof(bits));
    s.prev = v2;
    r.Consume(static_cast<unsigned>(two_total));
    return gap1 + gap2 + 2;
  }
  s.prev = v1;
  r.Consume(static_cast<unsigned>(one_total));
  return gap1 + 1;
}

// Values [*i, count) for W = 32 while 8 bytes remain at the next load, without a branch on '0'
// versus '10': rounded FLOAT data mixes the two at random, and a mispredicted branch per value
// costs more than this loop. A 32-bit value takes at most 2 + 10 + 32 = 44 bits, so after a
// Refill() the register window holds the whole value; the load for the next refill proceeds
// meanwhile. Each step takes a gap longer than kMaxGap (up to kRepeatRun repeats), one or two
// changes and their gaps (TakeChanges32), or else (a '11', the last values) one value.
template <typename T>
TSREAD_ALWAYS_INLINE Stop DecodeBuffered32(BitReader& in, XorState& state, size_t* i, size_t count, T* out) {
  if (in.bytes_ahead() < 8) return Stop::kDone;
  RefillingBitBuffer r(in);
  XorState s = state;
  // All ones until the first '11' stores lengths.
  uint64_t no_lengths = s.sig == 0 ? ~uint64_t{0} : 0;
  if (s.sig == 0) s.sig = kPlaceholderSig;
  size_t k = *i;
  Stop stop = Stop::kDone;
  for (; k < count && r.CanRefill(); ++k) {
    r.Refill();
    const uint64_t window = r.window();
    const uint64_t zeros = LeadingZeros(window);
    if (__builtin_expect(zeros > kMaxGap, 0)) {
      // More repeats than a step's gap: up to kRepeatRun at once (a constant stretch costs a
      // store per value).
      const size_t run = std::min<size_t>(std::min<uint64_t>(zeros, kRepeatRun), count - k);
      std::fill_n(out + k, run, std::bit_cast<T>(static_cast<uint32_t>(s.prev)));
      r.Consume(static_cast<unsigned>(run));
      k += run - 1;  // and the loop's ++k
      continue;
    }
    if (count - k >= kChangesRoom) {
      const size_t taken = TakeChanges32(window, zeros, no_lengths, s, out + k, r);
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
