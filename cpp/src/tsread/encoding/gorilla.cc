// GORILLA value streams (gorilla.h): the checked one-value loop, the 64-bit fast zone (blocks of
// '10' values, gorilla_blocks.h where the CPU has AVX-512), the run-time choice of the fast loops'
// builds, and the entry points; the 32-bit fast zone is gorilla_buffered32.h.
#include "tsread/encoding/gorilla.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/common/cpu_dispatch.h"
#include "tsread/encoding/bit_reader.h"
#include "tsread/encoding/gorilla_blocks.h"
#include "tsread/encoding/gorilla_buffered32.h"
#include "tsread/encoding/gorilla_stream.h"

namespace tsread {
namespace {

using gorilla_steps::DecodeBuffered32;
using gorilla_steps::kFastBytes;
using gorilla_steps::kNewLengthsHeader;
using gorilla_steps::kRepeatRun;
using gorilla_steps::Stop;
using gorilla_steps::TakeNewLengths;
using gorilla_steps::WordBits;
using gorilla_steps::XorState;

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
      bits[j] = (kWide ? BitReader::Peek64At(data, at + 2) : window << 2) >> drop;
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
// The same loops compiled with BMI2 (cpu_dispatch.h), and LZCNT for W = 32 (TakeChanges32
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
