#include "tsread/encoding/gorilla_v1.h"

#include <bit>
#include <cstdint>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/bit_reader.h"

namespace tsread {
namespace {

template <int W>
using WordBits = std::conditional_t<W == 32, uint32_t, uint64_t>;

// Why decoding stopped before `count`.
enum class Stop { kDone, kTruncated, kBadLengths };

// The W-bit first value, stored little-endian (J: SinglePrecisionDecoderV1 `ch1 + (ch2 << 8) ...`).
template <int W>
uint64_t LoadLittleEndian(std::string_view stream) {
  uint64_t v = 0;
  for (int b = W / 8 - 1; b >= 0; --b) v = (v << 8) | static_cast<uint8_t>(stream[static_cast<size_t>(b)]);
  return v;
}

// The XOR for a '10' value: the W-lz-tz bits between the previous value's leading and trailing
// zeros. A previous value of 0 has lz = tz = W; Java's loop then reads nothing (§9.10).
template <int W>
bool ReadXorWithinPrevious(BitReader& in, uint64_t prev, uint64_t* xor_out) {
  const WordBits<W> p = static_cast<WordBits<W>>(prev);
  if (p == 0) {
    *xor_out = 0;
    return true;
  }
  const int leading = std::countl_zero(p);
  const int trailing = std::countr_zero(p);
  uint64_t bits;
  if (!in.Read(W - leading - trailing, &bits)) return false;
  *xor_out = bits << trailing;
  return true;
}

// The XOR for a '11' value: lz (5 / 6 bits), len (6 / 7 bits), then len bits placed below lz
// leading zeros. lz + len > W never comes from the writer (Java would shift by a negative count).
template <int W>
Stop ReadXorWithNewLengths(BitReader& in, uint64_t* xor_out) {
  constexpr int kLeadingBits = W == 32 ? 5 : 6;  // J: LEADING_ZERO_BITS_LENGTH_32BIT / _64BIT
  constexpr int kLengthBits = W == 32 ? 6 : 7;   // J: FLOAT_VALUE_LENGTH / DOUBLE_VALUE_LENGTH
  uint64_t leading, length, bits;
  if (!in.Read(kLeadingBits, &leading) || !in.Read(kLengthBits, &length)) return Stop::kTruncated;
  if (leading + length > W) return Stop::kBadLengths;
  if (!in.Read(static_cast<int>(length), &bits)) return Stop::kTruncated;
  // length == 0 gives no bits (and the shift could be W): nothing changes.
  *xor_out = length == 0 ? 0 : bits << (W - leading - length);
  return Stop::kDone;
}

// The XOR that turns the previous value into the next: 0 for '0', else as '10' / '11' say.
template <int W>
Stop ReadNextXor(BitReader& in, uint64_t prev, uint64_t* xor_out) {
  uint64_t control;
  if (!in.Read(1, &control)) return Stop::kTruncated;
  if (control == 0) {
    *xor_out = 0;
    return Stop::kDone;
  }
  if (!in.Read(1, &control)) return Stop::kTruncated;
  if (control == 0) return ReadXorWithinPrevious<W>(in, prev, xor_out) ? Stop::kDone : Stop::kTruncated;
  return ReadXorWithNewLengths<W>(in, xor_out);
}

template <typename T>
absl::Status StopError(Stop stop, size_t decoded, size_t count, size_t offset) {
  const char* type = std::is_same_v<T, float> ? "FLOAT" : "DOUBLE";
  const std::string where = absl::StrCat("GORILLA_V1 ", type, " stream at byte offset ", offset,
                                         " (value ", decoded, " of ", count, "): ");
  if (stop == Stop::kBadLengths) {
    return absl::DataLossError(absl::StrCat(where, "leading zeros + length exceed ", sizeof(T) * 8));
  }
  return absl::DataLossError(absl::StrCat(where, "truncated"));
}

template <typename T>
absl::StatusOr<size_t> DecodeGorillaV1(std::string_view stream, size_t count, T* out) {
  constexpr int W = sizeof(T) * 8;
  constexpr size_t kFirstBytes = W / 8;
  if (count == 0) return size_t{0};
  if (stream.size() < kFirstBytes) return StopError<T>(Stop::kTruncated, 0, count, 0);
  uint64_t prev = LoadLittleEndian<W>(stream);
  out[0] = std::bit_cast<T>(static_cast<WordBits<W>>(prev));
  BitReader in(stream.substr(kFirstBytes));
  for (size_t k = 1; k < count; ++k) {
    const size_t value_offset = kFirstBytes + static_cast<size_t>(in.bit_position() / 8);
    uint64_t x;
    const Stop stop = ReadNextXor<W>(in, prev, &x);
    if (stop != Stop::kDone) return StopError<T>(stop, k, count, value_offset);
    prev ^= x;
    out[k] = std::bit_cast<T>(static_cast<WordBits<W>>(prev));
  }
  return kFirstBytes + in.bytes_consumed();
}

}  // namespace

absl::StatusOr<size_t> DecodeGorillaV1Floats(std::string_view stream, size_t count, float* out) {
  return DecodeGorillaV1(stream, count, out);
}
absl::StatusOr<size_t> DecodeGorillaV1Doubles(std::string_view stream, size_t count, double* out) {
  return DecodeGorillaV1(stream, count, out);
}

}  // namespace tsread
