// GORILLA (format reference §9.6) decoding: what a stream carries from value to value, the '11'
// header and the limits the fast loops share (gorilla.cc, gorilla_buffered32.h).
#ifndef TSREAD_ENCODING_GORILLA_STREAM_H_
#define TSREAD_ENCODING_GORILLA_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tsread/common/cpu_dispatch.h"

namespace tsread::gorilla_steps {

// Why a decode loop stopped before `count`.
enum class Stop { kDone, kTruncated, kBadLengths, kNoStoredLengths };

// What one §9.6 stream carries from value to value.
struct XorState {
  uint64_t prev = 0;      // bits of the previous value (only the low W bits are ever set)
  uint64_t sig = 0;       // stored meaningful-bit count S = W - L - T; 0 until the first '11'
  uint64_t trailing = 0;  // stored trailing zeros T
};

template <int W>
using WordBits = std::conditional_t<W == 32, uint32_t, uint64_t>;

// §9.6: L and S-1 take 5 bits each for W = 32, 6 for W = 64.
template <int W>
constexpr int kLengthBits = W == 32 ? 5 : 6;
template <int W>
constexpr uint64_t kNewLengthsHeader = 2 + 2 * kLengthBits<W>;

// A value takes at most 2 + 12 + 64 = 78 bits. While this many bytes remain from the current
// byte, every 9-byte peek a fast loop makes for the value stays inside the span.
constexpr size_t kFastBytes = 16;

// Most repeats ('0') taken at once (<= 56: one refilled window): the 32-bit loop takes up to this
// many, the 64-bit loop this many when at least this many follow.
constexpr unsigned kRepeatRun = 48;

// Decodes the '11' header at the top of `window` into `s`; false if L + S exceeds W.
template <int W>
TSREAD_ALWAYS_INLINE bool TakeNewLengths(uint64_t window, XorState& s) {
  constexpr int kBits = kLengthBits<W>;
  constexpr uint64_t kMask = (uint64_t{1} << kBits) - 1;
  const uint64_t leading = (window >> (62 - kBits)) & kMask;
  const uint64_t sig = ((window >> (62 - 2 * kBits)) & kMask) + 1;
  if (leading + sig > W) return false;
  s.sig = sig;
  s.trailing = W - leading - sig;
  return true;
}

}  // namespace tsread::gorilla_steps

#endif  // TSREAD_ENCODING_GORILLA_STREAM_H_
