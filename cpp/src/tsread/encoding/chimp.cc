#include "tsread/encoding/chimp.h"

#include <array>
#include <bit>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/bit_reader.h"

namespace tsread {
namespace {

// §9.11 / J: LongChimpDecoder.LEADING_REPRESENTATION: the leading-zero counts a 3-bit code names.
constexpr std::array<uint64_t, 8> kLeadingZeros = {0, 8, 12, 16, 18, 20, 22, 24};

// Per-width layout: ring size 2^kLog2Ring, `sig` field width.
template <int W>
struct ChimpLayout {
  static constexpr int kLog2Ring = W == 32 ? 6 : 7;
  static constexpr uint64_t kRingMask = (uint64_t{1} << kLog2Ring) - 1;
  static constexpr int kSigBits = W == 32 ? 5 : 6;
  static constexpr uint64_t kRepeatHeader = 2 + kLog2Ring;                 // '00' idx
  static constexpr uint64_t kRingXorHeader = 2 + kLog2Ring + 3 + kSigBits;  // '01' idx code sig
  static constexpr uint64_t kNewLeadingHeader = 2 + 3;                      // '11' code
};

enum class Stop { kDone, kTruncated, kBadLengths, kNoStoredLeading };

// Decoder state: the ring of previous values and the stored leading-zero count.
template <int W>
struct ChimpState {
  std::array<uint64_t, size_t{1} << ChimpLayout<W>::kLog2Ring> ring{};  // zeros, like Java's new long[]
  uint64_t current = 0;                                                  // ring slot of the previous value
  // Java starts with Integer.MAX_VALUE, so a '10' before any '11'/'01' is garbage there.
  bool has_leading = false;
  uint64_t leading = 0;
};

// Decodes one value after the first into *value (the caller stores it in the ring).
template <int W>
Stop DecodeOne(BitReader& in, ChimpState<W>& s, uint64_t* value) {
  using Layout = ChimpLayout<W>;
  const uint64_t window = in.Peek64();
  const uint64_t prev = s.ring[s.current];
  uint64_t bits;
  switch (window >> 62) {
    case 0: {  // '00': a repeat of ring[idx]
      if (in.bits_remaining() < Layout::kRepeatHeader) return Stop::kTruncated;
      *value = s.ring[(window >> (62 - Layout::kLog2Ring)) & Layout::kRingMask];
      in.Skip(Layout::kRepeatHeader);
      return Stop::kDone;
    }
    case 1: {  // '01': ring[idx] XOR sig bits placed above T trailing zeros
      if (in.bits_remaining() < Layout::kRingXorHeader) return Stop::kTruncated;
      const uint64_t fields = window >> (64 - Layout::kRingXorHeader);
      const uint64_t idx = (fields >> (3 + Layout::kSigBits)) & Layout::kRingMask;
      const uint64_t leading = kLeadingZeros[(fields >> Layout::kSigBits) & 7];
      uint64_t sig = fields & ((uint64_t{1} << Layout::kSigBits) - 1);
      if (sig == 0) sig = W;  // J: "if (significantBits == 0) significantBits = 64"
      if (leading + sig > W) return Stop::kBadLengths;
      in.Skip(Layout::kRingXorHeader);
      if (!in.Read(static_cast<int>(sig), &bits)) return Stop::kTruncated;
      *value = s.ring[idx] ^ (bits << (W - leading - sig));
      s.leading = leading;
      s.has_leading = true;
      return Stop::kDone;
    }
    case 2: {  // '10': previous XOR (W - L) bits, stored L
      if (!s.has_leading) return Stop::kNoStoredLeading;
      if (in.bits_remaining() < 2 + (W - s.leading)) return Stop::kTruncated;
      in.Skip(2);
      break;
    }
    default: {  // '11': new L, then previous XOR (W - L) bits
      if (in.bits_remaining() < Layout::kNewLeadingHeader) return Stop::kTruncated;
      s.leading = kLeadingZeros[(window >> 59) & 7];
      s.has_leading = true;
      in.Skip(Layout::kNewLeadingHeader);
      break;
    }
  }
  if (!in.Read(static_cast<int>(W - s.leading), &bits)) return Stop::kTruncated;
  *value = prev ^ bits;
  return Stop::kDone;
}

template <typename T>
constexpr const char* TypeName() {
  if constexpr (std::is_same_v<T, int32_t>) return "INT32";
  if constexpr (std::is_same_v<T, int64_t>) return "INT64";
  if constexpr (std::is_same_v<T, float>) return "FLOAT";
  return "DOUBLE";
}

template <int W, typename T>
absl::Status StopError(Stop stop, size_t decoded, size_t count, uint64_t bit_offset) {
  const std::string where = absl::StrCat("CHIMP ", TypeName<T>(), " stream at byte offset ", bit_offset / 8,
                                         " (value ", decoded, " of ", count, "): ");
  switch (stop) {
    case Stop::kBadLengths:
      return absl::DataLossError(absl::StrCat(where, "leading zeros + significant bits exceed ", W));
    case Stop::kNoStoredLeading:
      return absl::DataLossError(absl::StrCat(where, "control '10' before any '11' or '01'"));
    default: return absl::DataLossError(absl::StrCat(where, "truncated"));
  }
}

template <typename T>
absl::StatusOr<size_t> DecodeChimp(std::string_view stream, size_t count, T* out) {
  constexpr int W = sizeof(T) * 8;
  using Bits = std::conditional_t<W == 32, uint32_t, uint64_t>;
  if (count == 0) return size_t{0};
  BitReader in(stream);
  ChimpState<W> state;
  if (!in.Read(W, &state.ring[0])) return StopError<W, T>(Stop::kTruncated, 0, count, 0);
  out[0] = std::bit_cast<T>(static_cast<Bits>(state.ring[0]));
  for (size_t k = 1; k < count; ++k) {
    const uint64_t value_start = in.bit_position();
    uint64_t value;
    const Stop stop = DecodeOne<W>(in, state, &value);
    if (stop != Stop::kDone) return StopError<W, T>(stop, k, count, value_start);
    state.current = (state.current + 1) & ChimpLayout<W>::kRingMask;
    state.ring[state.current] = value;
    out[k] = std::bit_cast<T>(static_cast<Bits>(value));
  }
  return in.bytes_consumed();
}

}  // namespace

absl::StatusOr<size_t> DecodeChimpInt32s(std::string_view stream, size_t count, int32_t* out) {
  return DecodeChimp(stream, count, out);
}
absl::StatusOr<size_t> DecodeChimpInt64s(std::string_view stream, size_t count, int64_t* out) {
  return DecodeChimp(stream, count, out);
}
absl::StatusOr<size_t> DecodeChimpFloats(std::string_view stream, size_t count, float* out) {
  return DecodeChimp(stream, count, out);
}
absl::StatusOr<size_t> DecodeChimpDoubles(std::string_view stream, size_t count, double* out) {
  return DecodeChimp(stream, count, out);
}

}  // namespace tsread
