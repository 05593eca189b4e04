// Header-only helpers shared by the value-decoder tests in cpp/test/encoding: byte and bit
// builders for hand-made streams, exact-size copies for ASan, value walks, and the checks that
// every decoder test repeats (truncated prefixes, garbage input, real pages from the fixtures).
#ifndef TSREAD_TESTING_ENCODING_TEST_SUPPORT_H_
#define TSREAD_TESTING_ENCODING_TEST_SUPPORT_H_

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tsread::testing {

// --- Bytes -----------------------------------------------------------------------------------------

// A heap copy of exactly the bytes of `s` (no terminator, no spare capacity), so that ASan
// reports any read past the end of the stream.
class ExactBytes {
 public:
  explicit ExactBytes(std::string_view s) : bytes_(s.begin(), s.end()) {}
  std::string_view view() const { return {bytes_.data(), bytes_.size()}; }

 private:
  std::vector<char> bytes_;
};

inline std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

// The bytes {0x01, 0xFF, ...} as a string.
inline std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

// Lower-case hex of `bytes`, the inverse of FromHex (for comparing encoder output).
inline std::string ToHex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

// Unsigned LEB128 varint (Java's ReadWriteForEncodingUtils.writeUnsignedVarInt, widened).
inline void PutUVar(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// The low `bytes` bytes of `v`, most significant first.
inline void PutBigEndian(std::string* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>(v >> (8 * i)));
}

// Zig-zag signed varint (Java's ReadWriteForEncodingUtils.writeVarInt).
inline void PutSVar(std::string* out, int32_t v) {
  PutUVar(out, (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31));
}

// One REGULAR block (§9.9) of T = int32_t or int64_t: u8 hasMissing, [i32 L, bitmap], i32 n,
// T minDelta, T first. An empty `bitmap` means no missing points.
template <typename T>
std::string RegularBlock(int32_t n, T step, T first, const std::string& bitmap = "") {
  std::string out;
  out.push_back(bitmap.empty() ? 0 : 1);
  if (!bitmap.empty()) {
    PutBigEndian(&out, bitmap.size(), 4);
    out += bitmap;
  }
  PutBigEndian(&out, static_cast<uint32_t>(n), 4);
  PutBigEndian(&out, static_cast<uint64_t>(step), sizeof(T));
  PutBigEndian(&out, static_cast<uint64_t>(first), sizeof(T));
  return out;
}

// The dictionary part of a DICTIONARY stream (§9.7): svar entryCount, then svar length + bytes
// per entry; the RLE index stream follows it.
inline std::string DictionaryEntries(const std::vector<std::string>& entries) {
  std::string out;
  PutSVar(&out, static_cast<int32_t>(entries.size()));
  for (const std::string& e : entries) {
    PutSVar(&out, static_cast<int32_t>(e.size()));
    out += e;
  }
  return out;
}

// MSB-first bit writer (§9.1 bit order).
class BitWriter {
 public:
  // Appends the low `bits` bits of `value`, most significant first.
  void Write(uint64_t value, int bits) {
    for (int b = bits - 1; b >= 0; --b) PutBit((value >> b) & 1);
  }
  void PutBit(bool bit) {
    if (bits_ % 8 == 0) bytes_.push_back('\0');
    if (bit) bytes_.back() = static_cast<char>(bytes_.back() | (0x80 >> (bits_ % 8)));
    ++bits_;
  }
  // Appends bits given as a string of '0'/'1' (other characters are ignored).
  void WriteString(std::string_view bits) {
    for (char c : bits) {
      if (c == '0' || c == '1') PutBit(c == '1');
    }
  }
  void PadToByte() { bits_ = (bits_ + 7) & ~size_t{7}; }
  size_t bit_count() const { return bits_; }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
  size_t bits_ = 0;
};

// A hand-assembled bit string ("0101 11", spaces ignored) as bytes, the last one zero-padded.
inline std::string Bits(std::string_view s) {
  BitWriter w;
  w.WriteString(s);
  return w.bytes();
}

// --- Values ----------------------------------------------------------------------------------------

// The unsigned word of a value's width: the IEEE bits of FLOAT/DOUBLE, two's complement of integers.
template <typename T>
using BitsWord = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;

template <typename T>
BitsWord<T> BitsOf(T v) {
  return std::bit_cast<BitsWord<T>>(v);
}

// Bit patterns of `values`, widened to 64 bits: compares values bit for bit (NaN payloads, -0.0).
template <typename T>
std::vector<uint64_t> BitsOf(const std::vector<T>& values) {
  std::vector<uint64_t> bits;
  for (T v : values) bits.push_back(BitsOf(v));
  return bits;
}

inline void Fnv1aMix(uint64_t* hash, uint8_t byte) {
  *hash ^= byte;
  *hash *= 0x100000001b3u;
}

// FNV-1a over each value as 8 little-endian bytes (integers sign-extended, FLOAT/DOUBLE as their
// IEEE bits): compares a whole page with the values the reference decoder read.
template <typename T>
uint64_t Fnv1a(const std::vector<T>& values) {
  uint64_t hash = 0xcbf29ce484222325u;
  for (T v : values) {
    uint64_t bits;
    if constexpr (std::is_same_v<T, float>) {
      bits = std::bit_cast<uint32_t>(v);
    } else if constexpr (std::is_same_v<T, double>) {
      bits = std::bit_cast<uint64_t>(v);
    } else {
      bits = static_cast<uint64_t>(static_cast<int64_t>(v));
    }
    for (int i = 0; i < 8; ++i) Fnv1aMix(&hash, static_cast<uint8_t>((bits >> (8 * i)) & 0xFF));
  }
  return hash;
}

// FNV-1a over each value as its length (8 little-endian bytes) and its bytes.
inline uint64_t Fnv1a(const std::vector<std::string_view>& values) {
  uint64_t hash = 0xcbf29ce484222325u;
  for (std::string_view v : values) {
    for (int i = 0; i < 8; ++i) Fnv1aMix(&hash, static_cast<uint8_t>(static_cast<uint64_t>(v.size()) >> (8 * i)));
    for (char c : v) Fnv1aMix(&hash, static_cast<uint8_t>(c));
  }
  return hash;
}

// The shape of RandomWalk: where FLOAT/DOUBLE walks start, and the integer steps.
struct WalkOptions {
  double start = 250.0;
  uint64_t max_step_up = 64;        // integers: a small step adds rng() % max_step_up
  uint64_t max_step_down = 100000;  // integers: a larger step subtracts rng() % max_step_down
};

// Sensor-like FLOAT/DOUBLE: two decimals, steps of at most 1.00, a repeat one time in four.
// Integers from 1000, each step one of: repeat, small step up, larger step down (may wrap), a
// jump anywhere.
template <typename T>
std::vector<T> RandomWalk(size_t n, uint64_t seed, const WalkOptions& options = {}) {
  std::mt19937_64 rng(seed);
  std::vector<T> values;
  if constexpr (std::is_floating_point_v<T>) {
    double v = options.start;
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 4 != 0) v = std::round((v + (static_cast<double>(rng() % 201) - 100) / 100.0) * 100) / 100;
      values.push_back(static_cast<T>(v));
    }
  } else {
    using U = std::make_unsigned_t<T>;
    U v = 1000;
    for (size_t i = 0; i < n; ++i) {
      switch (rng() % 4) {
        case 0: break;                                                        // repeat
        case 1: v += static_cast<U>(rng() % options.max_step_up); break;      // small step
        case 2: v -= static_cast<U>(rng() % options.max_step_down); break;    // larger step
        default: v = static_cast<U>(rng()); break;                            // jump anywhere
      }
      values.push_back(static_cast<T>(v));
    }
  }
  return values;
}

// `n` random 64-bit and 32-bit patterns as DOUBLE and FLOAT (drawn alternately, double first).
struct RandomFloatingBits {
  std::vector<double> doubles;
  std::vector<float> floats;
};
inline RandomFloatingBits RandomBitPatterns(uint64_t seed, int n = 5000) {
  std::mt19937_64 rng(seed);
  RandomFloatingBits out;
  for (int i = 0; i < n; ++i) {
    out.doubles.push_back(std::bit_cast<double>(rng()));
    out.floats.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
  }
  return out;
}

// --- Decoders --------------------------------------------------------------------------------------

// An encoding's typed decoders (each `(std::string_view, size_t count, T* out)`) as one callable
// that picks by the output type, e.g.
//   const TypedDecoder Decode(DecodeGorillaInt32s, DecodeGorillaInt64s, ...);
//   Decode(stream, n, doubles.data());
template <typename... Fns>
class TypedDecoder {
 public:
  constexpr explicit TypedDecoder(Fns... fns) : fns_(fns...) {}

  template <typename T>
  absl::StatusOr<size_t> operator()(std::string_view stream, size_t count, T* out) const {
    return Pick<T, 0>()(stream, count, out);
  }

 private:
  template <typename T, size_t I>
  constexpr auto Pick() const {
    static_assert(I < sizeof...(Fns), "no decoder for this output type");
    if constexpr (std::is_invocable_v<std::tuple_element_t<I, std::tuple<Fns...>>, std::string_view, size_t, T*>) {
      return std::get<I>(fns_);
    } else {
      return Pick<T, I + 1>();
    }
  }

  std::tuple<Fns...> fns_;
};

inline void ExpectDataLoss(const absl::StatusOr<size_t>& result) {
  EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss) << result.status();
}

// `decode(prefix)` is DataLoss for every proper prefix of `stream`, each an exact-size copy.
template <typename DecodeFn>
void ExpectEveryProperPrefixIsDataLoss(std::string_view stream, const DecodeFn& decode) {
  for (size_t len = 0; len < stream.size(); ++len) ExpectDataLoss(decode(ExactBytes(stream.substr(0, len)).view()));
}

// Decodes `expected.size()` values from every prefix of `stream` (the whole stream included), each
// an exact-size heap copy so that ASan sees any read past its end: prefixes shorter than `needed`
// must fail with DataLoss (whose message mentions `must_mention`, if given); longer ones must
// decode to exactly the bits of `expected`.
template <typename T, typename DecodeFn>
void ExpectTruncationDetected(const DecodeFn& decode, std::string_view stream, size_t needed,
                              const std::vector<T>& expected, std::string_view must_mention = {}) {
  std::vector<T> got(expected.size());
  for (size_t len = 0; len <= stream.size(); ++len) {
    const std::unique_ptr<char[]> copy(new char[len == 0 ? 1 : len]);
    std::memcpy(copy.get(), stream.data(), len);
    absl::StatusOr<size_t> consumed = decode(std::string_view(copy.get(), len), expected.size(), got.data());
    if (len < needed) {
      ASSERT_FALSE(consumed.ok()) << "prefix " << len;
      EXPECT_EQ(consumed.status().code(), absl::StatusCode::kDataLoss) << consumed.status();
      if (!must_mention.empty()) {
        EXPECT_THAT(consumed.status().message(), ::testing::HasSubstr(must_mention));
      }
    } else {
      ASSERT_TRUE(consumed.ok()) << "prefix " << len << ": " << consumed.status();
      EXPECT_EQ(BitsOf(got), BitsOf(expected));
    }
  }
}

// Decoding `count` values of type T from `stream` gives a value or DataLoss, and never claims more
// bytes than the stream has.
template <typename T, typename DecodeFn>
void ExpectValueOrDataLoss(const DecodeFn& decode, std::string_view stream, size_t count) {
  std::vector<T> out(count);
  const absl::StatusOr<size_t> r = decode(stream, count, out.data());
  if (!r.ok()) {
    EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss) << r.status();
  } else {
    EXPECT_LE(*r, stream.size());
  }
}

// Random bytes and corrupted (bytes flipped, then cut) copies of `valid` streams, decoded with
// `decode` as up to 299 values of every type Ts: every outcome is a value or DataLoss, never a
// crash or an out-of-bounds read (run under ASan/UBSan).
template <typename... Ts, typename DecodeFn>
void ExpectGarbageNeverCrashes(const DecodeFn& decode, const std::vector<std::string>& valid,
                               uint64_t seed = 99, int iterations = 3000) {
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < iterations; ++iter) {
    std::string bytes;
    if (iter % 2 == 0) {
      bytes.resize(rng() % 200);
      for (char& c : bytes) c = static_cast<char>(rng());
    } else {
      bytes = valid[rng() % valid.size()];
      for (int flips = 1 + static_cast<int>(rng() % 3); flips > 0 && !bytes.empty(); --flips) {
        bytes[rng() % bytes.size()] ^= static_cast<char>(1 + rng() % 255);
      }
      bytes.resize(rng() % (bytes.size() + 1));
    }
    const std::unique_ptr<char[]> copy(new char[bytes.size() + 1]);
    std::memcpy(copy.get(), bytes.data(), bytes.size());
    const std::string_view view(copy.get(), bytes.size());
    const size_t count = rng() % 300;
    (ExpectValueOrDataLoss<Ts>(decode, view, count), ...);
  }
}

// --- Real pages ------------------------------------------------------------------------------------
// Value streams cut from the Java-written fixtures (../shared/fixtures) with the Python reference
// reader (tools/pyref).

// A page's value stream, the statistics Java wrote for it (first, last and, where given, min and
// max) and an FNV-1a hash of the values pyref decodes from the same bytes.
template <typename T>
struct RealPage {
  std::string_view hex;
  size_t count = 0;
  T first{};
  T last{};
  std::optional<T> min = std::nullopt;
  std::optional<T> max = std::nullopt;
  uint64_t fnv1a = 0;
};

// Decodes `page` from an exact-size copy with `decode(stream, count, T*)`: it must use the whole
// stream and match the statistics and the hash.
template <typename T, typename DecodeFn>
void ExpectRealPage(const DecodeFn& decode, const RealPage<T>& page) {
  const std::string stream = FromHex(page.hex);
  const ExactBytes bytes(stream);  // outlives any views in `out`
  std::vector<T> out(page.count);
  absl::StatusOr<size_t> consumed = decode(bytes.view(), out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_EQ(out.front(), page.first);
  EXPECT_EQ(out.back(), page.last);
  if (page.min) {
    EXPECT_EQ(*std::min_element(out.begin(), out.end()), *page.min);
  }
  if (page.max) {
    EXPECT_EQ(*std::max_element(out.begin(), out.end()), *page.max);
  }
  EXPECT_EQ(Fnv1a(out), page.fnv1a);
}

// Decodes the N values of a hex stream (Java-written) and compares their bit patterns with
// `expected`; the decoder must read the whole stream, or at most `may_leave_unread` bytes less.
template <typename T, typename Expected, size_t N, typename DecodeFn>
void ExpectDecodesToBits(const DecodeFn& decode, std::string_view hex, const Expected (&expected)[N],
                         size_t may_leave_unread = 0) {
  const std::string stream = FromHex(hex);
  std::vector<T> got(N);
  absl::StatusOr<size_t> consumed = decode(stream, N, got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  if (may_leave_unread == 0) {
    EXPECT_EQ(*consumed, stream.size());
  } else {
    EXPECT_LE(*consumed, stream.size());
    EXPECT_GE(*consumed + may_leave_unread, stream.size());
  }
  std::vector<Expected> got_bits;
  for (T v : got) got_bits.push_back(static_cast<Expected>(BitsOf(v)));
  EXPECT_THAT(got_bits, ::testing::ElementsAreArray(expected));
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_ENCODING_TEST_SUPPORT_H_
