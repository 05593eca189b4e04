#include "tsread/encoding/gorilla.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/bit_reader.h"
#include "tsread/encoding/gorilla_blocks.h"
#include "tsread/common/cpu_dispatch.h"

namespace tsread {
namespace {

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

// Repeats ('0') taken at once when the next bits are this many '0's (<= 56: one refilled window).
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

// Values [*i, count) with a branch per control prefix. Used for W = 64 in the fast zone where
// DecodeReuseRuns64's blocks do not apply (kChecked = false: returns kDone once fewer than
// kFastBytes remain) and for every width near the end of the stream (kChecked = true).
template <int W, bool kChecked, typename T>
TSREAD_ALWAYS_INLINE Stop DecodeWithBranches(BitReader& in, XorState& state, size_t* i, size_t count, T* out) {
  BitReader r = in;  // a local copy the compiler keeps in registers
  XorState s = state;
  size_t k = *i;
  Stop stop = Stop::kDone;
  for (; k < count; ++k) {
    if constexpr (!kChecked) {
      if (r.bytes_ahead() < kFastBytes) break;
    }
    const uint64_t window = kChecked ? r.Peek64() : r.Peek64Unchecked();
    if (window >> 63) {  // '1x': the value changes
      uint64_t header = 2;
      if ((window >> 62) & 1) {  // '11': new L and S first
        header = kNewLengthsHeader<W>;
        if (kChecked && r.bits_remaining() < header) {
          stop = Stop::kTruncated;
          break;
        }
        if (!TakeNewLengths<W>(window, s)) {
          stop = Stop::kBadLengths;
          break;
        }
      } else if (s.sig == 0) {  // '10' needs the lengths of an earlier '11' (Java: garbage)
        stop = Stop::kNoStoredLengths;
        break;
      }
      if (kChecked && r.bits_remaining() < header + s.sig) {
        stop = Stop::kTruncated;
        break;
      }
      // The XOR bits follow the header; `window` holds them unless header + S > 64.
      uint64_t xor_bits;
      if (W == 32 || header + s.sig <= 64) {
        xor_bits = (window << header) >> (64 - s.sig);
        r.Skip(header + s.sig);
      } else {
        r.Skip(header);
        xor_bits = (kChecked ? r.Peek64() : r.Peek64Unchecked()) >> (64 - s.sig);
        r.Skip(s.sig);
      }
      s.prev ^= xor_bits << s.trailing;
    } else {  // '0': the value repeats
      if (kChecked && r.bits_remaining() < 1) {
        stop = Stop::kTruncated;
        break;
      }
      r.Skip(1);
    }
    out[k] = std::bit_cast<T>(static_cast<WordBits<W>>(s.prev));
  }
  in = r;
  state = s;
  *i = k;
  return stop;
}

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

// The 64 stream bits from bit `at` on, first one in bit 63: eight bytes and the low bits of a
// ninth (BitReader::Peek64Unchecked's read); the caller has checked that byte at / 8 + 8 exists.
TSREAD_ALWAYS_INLINE uint64_t Peek64At(const uint8_t* data, uint64_t at) {
  const uint8_t* p = data + (at >> 3);
  uint64_t word;
  std::memcpy(&word, p, 8);
  const unsigned skip = static_cast<unsigned>(at & 7);
  return (__builtin_bswap64(word) << skip) | (uint64_t{p[8]} >> (8 - skip));
}

// Values [*i, count) for W = 64 while the stored lengths stay and every value is a '10': real
// DOUBLE pages are almost all '10' with the same S, so value j of a run starts at a bit position
// known in advance (first + j * (2 + S)) and eight values are read with independent loads. With
// S <= 55 a value plus its offset in the first byte fits one 8-byte load; a wider S (a random
// walk across zero stores L = 0: S = 64 - T, about a twelfth of a real page's values) reads the
// value bits with a second, 9-byte load at their first bit (kWide). A block whose control bits
// are not all '10' is left to DecodeWithBranches; nothing of it is written.
template <bool kWide, typename T>
TSREAD_ALWAYS_INLINE void DecodeReuseRuns64(BitReader& in, XorState& state, size_t* i, size_t count, T* out) {
  constexpr uint64_t kBlock = 8;
  const uint8_t* const data = in.data();
  const uint64_t step = 2 + state.sig;
  const uint64_t drop = 64 - state.sig;
  // A block is read while its last load ends inside the span: the 8 bytes at byte
  // (pos + (kBlock - 1) * step) / 8, and with kWide the 9 bytes at the bit 2 after it.
  constexpr uint64_t kLoadBytes = kWide ? 9 : 8;
  constexpr uint64_t kLastOffset = kWide ? 2 : 0;
  if (in.size() < kLoadBytes) return;
  const uint64_t last_start = (static_cast<uint64_t>(in.size()) - kLoadBytes) * 8 + 7;
  uint64_t pos = in.bit_position();
  uint64_t prev = state.prev;
  size_t k = *i;
  while (count - k >= kBlock && pos + (kBlock - 1) * step + kLastOffset <= last_start) {
    uint64_t bits[kBlock];
    uint64_t bad = 0;
    for (uint64_t j = 0; j < kBlock; ++j) {
      const uint64_t at = pos + j * step;
      uint64_t word;
      std::memcpy(&word, data + (at >> 3), 8);
      const uint64_t window = __builtin_bswap64(word) << (at & 7);
      bad |= (window >> 62) ^ 2;  // not '10'
      bits[j] = (kWide ? Peek64At(data, at + 2) : window << 2) >> drop;
    }
    if (bad != 0) break;
    for (uint64_t j = 0; j < kBlock; ++j) {
      prev ^= bits[j] << state.trailing;
      out[k + j] = std::bit_cast<T>(prev);
    }
    k += kBlock;
    pos += kBlock * step;
  }
  in.Skip(pos - in.bit_position());
  state.prev = prev;
  *i = k;
}

// Blocks of eight '10' values in AVX-512 registers (gorilla_blocks.h), where the CPU has them.
template <typename T>
TSREAD_ALWAYS_INLINE void DecodeReuseBlocks64(BitReader& in, XorState& state, size_t* i, size_t count, T* out) {
  uint64_t pos = in.bit_position();
  *i += DecodeReuseBlocksVbmi(in.data(), in.size(), &pos, &state.prev, state.sig, state.trailing, count - *i, out + *i);
  in.Skip(pos - in.bit_position());
}

// The fast zone for W = 64: runs of '10' in blocks, everything else one value at a time.
template <typename T>
TSREAD_ALWAYS_INLINE Stop DecodeFast64(BitReader& in, XorState& state, size_t* i, size_t count, T* out) {
  const bool vector_blocks = CpuHasAvx512Vbmi();
  while (*i < count) {
    if (in.bytes_ahead() >= kFastBytes && in.Peek64Unchecked() < (uint64_t{1} << (64 - kRepeatRun)) &&
        count - *i >= kRepeatRun) {
      // kRepeatRun '0's: a constant stretch costs a store per value.
      std::fill_n(out + *i, kRepeatRun, std::bit_cast<T>(state.prev));
      in.Skip(kRepeatRun);
      *i += kRepeatRun;
      continue;
    }
    if (state.sig != 0 && state.sig <= 55) {
      if (vector_blocks) DecodeReuseBlocks64(in, state, i, count, out);
      DecodeReuseRuns64</*kWide=*/false>(in, state, i, count, out);  // the blocks before the span's last 64 bytes
    } else if (state.sig != 0) {
      DecodeReuseRuns64</*kWide=*/true>(in, state, i, count, out);
    }
    // At least one value (or up to the next change of lengths) with branches, then blocks again.
    const size_t before = *i;
    const size_t until = std::min(count, before + 8);
    const Stop stop = DecodeWithBranches<64, /*kChecked=*/false>(in, state, i, until, out);
    if (stop != Stop::kDone || *i == before) return stop;  // error, or fewer than kFastBytes left
  }
  return Stop::kDone;
}

// Values [*i, count) while the stream is far from its end; returns kDone with *i < count where
// the checked loop must take over.
template <int W, typename T>
TSREAD_ALWAYS_INLINE Stop DecodeFastZone(BitReader& in, XorState& state, size_t* i, size_t count, T* out) {
  if constexpr (W == 32) {
    return DecodeBuffered32(in, state, i, count, out);
  } else {
    return DecodeFast64(in, state, i, count, out);
  }
}

#if TSREAD_BMI2_DISPATCH
// The same loops compiled with BMI2 (cpu_dispatch.h), and LZCNT for W = 32 (TakeTwoChanges32
// counts leading zeros twice per step; the W = 64 loops count none, and timed slower built so).
template <int W, typename T>
TSREAD_TARGET_BMI2 Stop DecodeFastZoneBmi2(BitReader& in, XorState& state, size_t* i, size_t count, T* out) {
  return DecodeFastZone<W>(in, state, i, count, out);
}
template <typename T>
TSREAD_TARGET_BMI2_LZCNT Stop DecodeFastZoneBmi2Lzcnt(BitReader& in, XorState& state, size_t* i, size_t count,
                                                      T* out) {
  return DecodeFastZone<32>(in, state, i, count, out);
}
#endif

template <int W, typename T>
Stop DecodeFastZoneDispatch(BitReader& in, XorState& state, size_t* i, size_t count, T* out) {
#if TSREAD_BMI2_DISPATCH
  if constexpr (W == 32) {
    if (CpuHasBmi2AndLzcnt()) return DecodeFastZoneBmi2Lzcnt(in, state, i, count, out);
  } else {
    if (CpuHasBmi2()) return DecodeFastZoneBmi2<W>(in, state, i, count, out);
  }
#endif
  return DecodeFastZone<W>(in, state, i, count, out);
}

template <typename T>
constexpr const char* TypeName() {
  if constexpr (std::is_same_v<T, int32_t>) return "INT32";
  if constexpr (std::is_same_v<T, int64_t>) return "INT64";
  if constexpr (std::is_same_v<T, float>) return "FLOAT";
  return "DOUBLE";
}

template <int W, typename T>
absl::Status StopError(Stop stop, size_t decoded, size_t count, const BitReader& in) {
  const std::string where = absl::StrCat("GORILLA ", TypeName<T>(), " stream at byte offset ",
                                         in.bit_position() / 8, " (value ", decoded, " of ", count, "): ");
  switch (stop) {
    case Stop::kTruncated: return absl::DataLossError(absl::StrCat(where, "truncated"));
    case Stop::kBadLengths:
      return absl::DataLossError(absl::StrCat(where, "leading zeros + significant bits exceed ", W));
    case Stop::kNoStoredLengths:
      return absl::DataLossError(absl::StrCat(where, "control '10' before any '11'"));
    case Stop::kDone: break;
  }
  return absl::OkStatus();
}

template <int W, typename T>
absl::StatusOr<size_t> DecodeGorilla(std::string_view stream, size_t count, T* out) {
  static_assert(sizeof(T) * 8 == W);
  BitReader in(stream);
  if (count == 0) return size_t{0};
  XorState state;
  if (!in.Read(W, &state.prev)) return StopError<W, T>(Stop::kTruncated, 0, count, in);
  out[0] = std::bit_cast<T>(static_cast<WordBits<W>>(state.prev));
  size_t i = 1;
  Stop stop = DecodeFastZoneDispatch<W>(in, state, &i, count, out);
  if (stop == Stop::kDone && i < count) {
    stop = DecodeWithBranches<W, /*kChecked=*/true>(in, state, &i, count, out);
  }
  if (stop != Stop::kDone) return StopError<W, T>(stop, i, count, in);
  return in.bytes_consumed();
}

}  // namespace

absl::StatusOr<size_t> DecodeGorillaInt32s(std::string_view stream, size_t count, int32_t* out) {
  return DecodeGorilla<32>(stream, count, out);
}
absl::StatusOr<size_t> DecodeGorillaInt64s(std::string_view stream, size_t count, int64_t* out) {
  return DecodeGorilla<64>(stream, count, out);
}
absl::StatusOr<size_t> DecodeGorillaFloats(std::string_view stream, size_t count, float* out) {
  return DecodeGorilla<32>(stream, count, out);
}
absl::StatusOr<size_t> DecodeGorillaDoubles(std::string_view stream, size_t count, double* out) {
  return DecodeGorilla<64>(stream, count, out);
}

}  // namespace tsread
