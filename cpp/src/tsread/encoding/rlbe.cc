#include "tsread/encoding/rlbe.h"

#include <array>
#include <bit>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/bit_reader.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// J: IntRLBEDecoder.MAX_BLOCK_SIZE; Java's writer flushes a block every 10 000 values.
constexpr uint64_t kMaxBlockValues = 10000;

// Fibonacci weights of the run-length code: bit i (in stream order) is worth F[i] = 1, 2, 3, 5 ...
constexpr std::array<uint64_t, 64> FibonacciWeights() {
  std::array<uint64_t, 64> f{};
  f[0] = 1;
  f[1] = 2;
  for (size_t i = 2; i < f.size(); ++i) f[i] = f[i - 1] + f[i - 2];  // f[63] < 2^64
  return f;
}
constexpr std::array<uint64_t, 64> kFibonacci = FibonacciWeights();

template <typename T>
struct RlbeWord {
  static constexpr int kWidth = sizeof(T) * 8;
  using Unsigned = std::conditional_t<kWidth == 32, uint32_t, uint64_t>;
  static constexpr int kLengthBits = kWidth == 32 ? 6 : 7;  // J: readbit loops j = 5..0 / 6..0
};

template <typename T>
constexpr const char* TypeName() {
  if constexpr (std::is_same_v<T, int32_t>) return "INT32";
  if constexpr (std::is_same_v<T, int64_t>) return "INT64";
  if constexpr (std::is_same_v<T, float>) return "FLOAT";
  return "DOUBLE";
}

// Error at the current position of the stream.
template <typename T>
absl::Status Corrupt(const BitReader& in, size_t decoded, size_t count, std::string_view what) {
  return absl::DataLossError(absl::StrCat("RLBE ", TypeName<T>(), " stream at byte offset ",
                                          in.bit_position() / 8, " (value ", decoded, " of ", count,
                                          "): ", ToAbsl(what)));
}

// Reads one Fibonacci-coded run length (at most `limit`); 0 on a malformed or truncated code.
// The code is the Zeckendorf representation, least significant first, closed by the first '11'
// (a Zeckendorf code never has two adjacent ones otherwise). Java rejects runs beyond the block.
uint64_t ReadRunLength(BitReader& in, uint64_t limit) {
  const uint64_t window = in.Peek64();
  const uint64_t adjacent_ones = window & (window << 1);  // bit 63-i: code bits i and i+1 are 1
  if (adjacent_ones == 0) return 0;                        // no terminator within 64 bits
  const int last = std::countl_zero(adjacent_ones);        // the last value bit; its successor ends the code
  const uint64_t code_bits = static_cast<uint64_t>(last) + 2;
  if (in.bits_remaining() < code_bits) return 0;
  uint64_t run = 0;
  for (int i = 0; i <= last; ++i) {
    if ((window >> (63 - i)) & 1) run += kFibonacci[static_cast<size_t>(i)];
    if (run > limit) return 0;
  }
  in.Skip(code_bits);
  return run;
}

// The code word as the W-bit pattern Java ends up with: a full-length word had its sign bit
// written as 0 (the encoder's `(word & (1 << k)) > 0` is false for it), and the decoder subtracts
// 2^(W-1), which sets it again (J: *RLBEDecoder.readT).
template <typename T>
typename RlbeWord<T>::Unsigned WordBits(uint64_t raw, int length) {
  using Unsigned = typename RlbeWord<T>::Unsigned;
  constexpr int W = RlbeWord<T>::kWidth;
  Unsigned word = static_cast<Unsigned>(raw);
  if (length == W) word -= Unsigned{1} << (W - 1);
  return word;
}

// Running value of a block: integers add deltas with wrap-around; FLOAT/DOUBLE add the deltas'
// float/double values in that precision, as Java does (so values can come back a few ulps off).
template <typename T>
T FirstValue(typename RlbeWord<T>::Unsigned word) {
  return std::bit_cast<T>(word);
}
template <typename T>
T AddDelta(T prev, typename RlbeWord<T>::Unsigned word) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<typename RlbeWord<T>::Unsigned>(prev) + word);
  } else {
    return prev + std::bit_cast<T>(word);
  }
}

template <typename T>
absl::StatusOr<size_t> DecodeRlbe(std::string_view stream, size_t count, T* out) {
  constexpr int W = RlbeWord<T>::kWidth;
  BitReader in(stream);
  size_t k = 0;
  while (k < count) {
    in.AlignToByte();  // J: clearBuffer() drops the rest of the last block's byte
    uint64_t block_values;
    if (!in.Read(32, &block_values)) return Corrupt<T>(in, k, count, "truncated block header");
    if (block_values == 0 || block_values > kMaxBlockValues) {
      return Corrupt<T>(in, k, count,
                        absl::StrCat("block value count ", block_values, " not in 1..", kMaxBlockValues));
    }
    uint64_t in_block = 0;
    T value{};
    while (in_block < block_values && k < count) {
      uint64_t length;
      if (!in.Read(RlbeWord<T>::kLengthBits, &length)) {
        return Corrupt<T>(in, k, count, "truncated segment length");
      }
      if (length < 1 || length > W) {
        return Corrupt<T>(in, k, count, absl::StrCat("segment word length ", length, " not in 1..", W));
      }
      const uint64_t run = ReadRunLength(in, block_values - in_block);
      if (run == 0) return Corrupt<T>(in, k, count, "bad or truncated Fibonacci run length");
      for (uint64_t r = 0; r < run && k < count; ++r, ++in_block, ++k) {
        uint64_t raw;
        if (!in.Read(static_cast<int>(length), &raw)) return Corrupt<T>(in, k, count, "truncated code word");
        const auto word = WordBits<T>(raw, static_cast<int>(length));
        value = in_block == 0 ? FirstValue<T>(word) : AddDelta<T>(value, word);
        out[k] = value;
      }
    }
  }
  return in.bytes_consumed();
}

}  // namespace

absl::StatusOr<size_t> DecodeRlbeInt32s(std::string_view stream, size_t count, int32_t* out) {
  return DecodeRlbe(stream, count, out);
}
absl::StatusOr<size_t> DecodeRlbeInt64s(std::string_view stream, size_t count, int64_t* out) {
  return DecodeRlbe(stream, count, out);
}
absl::StatusOr<size_t> DecodeRlbeFloats(std::string_view stream, size_t count, float* out) {
  return DecodeRlbe(stream, count, out);
}
absl::StatusOr<size_t> DecodeRlbeDoubles(std::string_view stream, size_t count, double* out) {
  return DecodeRlbe(stream, count, out);
}

}  // namespace tsread
