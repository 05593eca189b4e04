// GORILLA (v2) decoding (format reference §9.6). Streams come from a test-only encoder that
// follows Java's GorillaEncoderV2 (sentinel, padding and the extra byte included) or from
// hand-assembled bit strings, never from the decoder under test.
#include "tsread/encoding/gorilla.h"

#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;

// MSB-first bit writer (§9.1 bit order).
class BitWriter {
 public:
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

struct Encoded {
  std::string bytes;
  size_t value_bytes = 0;  // bytes that hold the values (without sentinel, padding, extra byte)
};

// Java's GorillaEncoderV2 (Int/Long/SinglePrecision/DoublePrecision): values are W-bit patterns.
template <int W>
Encoded EncodeGorilla(const std::vector<uint64_t>& values) {
  constexpr int kLengthBits = W == 32 ? 5 : 6;
  constexpr uint64_t kMask = W == 32 ? 0xFFFFFFFFull : ~0ull;
  const uint64_t sentinel = W == 32 ? 0x80000000ull : 0x8000000000000000ull;  // INT32/INT64 sentinel
  BitWriter w;
  bool first = true;
  uint64_t stored = 0;
  int stored_leading = INT_MAX;
  int stored_trailing = 0;
  auto encode = [&](uint64_t value) {
    value &= kMask;
    if (first) {
      w.Write(value, W);
      stored = value;
      first = false;
      return;
    }
    const uint64_t x = value ^ stored;
    stored = value;
    if (x == 0) {
      w.PutBit(false);
      return;
    }
    w.PutBit(true);
    const int leading = std::countl_zero(x) - (64 - W);
    const int trailing = std::countr_zero(x);
    if (leading >= stored_leading && trailing >= stored_trailing) {
      w.PutBit(false);
      w.Write(x >> stored_trailing, W - stored_leading - stored_trailing);
    } else {
      w.PutBit(true);
      const int sig = W - leading - trailing;
      w.Write(static_cast<uint64_t>(leading), kLengthBits);
      w.Write(static_cast<uint64_t>(sig - 1), kLengthBits);
      w.Write(x >> trailing, sig);
      stored_leading = leading;
      stored_trailing = trailing;
    }
  };
  for (uint64_t v : values) encode(v);
  Encoded out;
  out.value_bytes = (w.bit_count() + 7) / 8;
  encode(sentinel);
  w.PadToByte();
  w.Write(0, 8);  // the extra byte Java always flushes
  out.bytes = w.bytes();
  return out;
}

template <typename T>
uint64_t BitsOf(T v) {
  if constexpr (sizeof(T) == 4) return std::bit_cast<uint32_t>(v);
  else return std::bit_cast<uint64_t>(v);
}

template <typename T>
std::vector<uint64_t> BitsOf(const std::vector<T>& values) {
  std::vector<uint64_t> bits;
  for (T v : values) bits.push_back(BitsOf(v));
  return bits;
}

absl::StatusOr<size_t> Decode(std::string_view s, size_t n, int32_t* out) {
  return DecodeGorillaInt32s(s, n, out);
}
absl::StatusOr<size_t> Decode(std::string_view s, size_t n, int64_t* out) {
  return DecodeGorillaInt64s(s, n, out);
}
absl::StatusOr<size_t> Decode(std::string_view s, size_t n, float* out) {
  return DecodeGorillaFloats(s, n, out);
}
absl::StatusOr<size_t> Decode(std::string_view s, size_t n, double* out) {
  return DecodeGorillaDoubles(s, n, out);
}

// Encodes `values`, decodes them back and compares bit patterns (so NaN payloads and -0.0 count).
template <typename T>
void ExpectRoundTrip(const std::vector<T>& values) {
  const Encoded enc = EncodeGorilla<sizeof(T) * 8>(BitsOf(values));
  std::vector<T> got(values.size());
  absl::StatusOr<size_t> consumed = Decode(enc.bytes, values.size(), got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, enc.value_bytes);
  EXPECT_EQ(BitsOf(got), BitsOf(values));
}

TEST(GorillaTest, ZeroCountReadsNothing) {
  int64_t out = 7;
  absl::StatusOr<size_t> consumed = DecodeGorillaInt64s("", 0, &out);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
  EXPECT_EQ(out, 7);
}

TEST(GorillaTest, OneValue) {
  ExpectRoundTrip<int32_t>({42});
  ExpectRoundTrip<int64_t>({-42});
  ExpectRoundTrip<float>({1.5f});
  ExpectRoundTrip<double>({-2.25});
}

TEST(GorillaTest, Repeats) {
  ExpectRoundTrip<int32_t>(std::vector<int32_t>(100, 7));
  ExpectRoundTrip<int64_t>(std::vector<int64_t>(100, -7));
  ExpectRoundTrip<float>(std::vector<float>(100, 3.25f));
  ExpectRoundTrip<double>(std::vector<double>(1000, 20.5));
}

TEST(GorillaTest, IntegerExtremesIncludingTheSentinel) {
  // INT32 MIN / INT64 MIN are the sentinels; decoding by count must read them as values.
  ExpectRoundTrip<int32_t>({0, INT32_MIN, INT32_MAX, -1, INT32_MIN, INT32_MIN, 1, INT32_MAX, 0, INT32_MIN});
  ExpectRoundTrip<int64_t>({0, INT64_MIN, INT64_MAX, -1, INT64_MIN, INT64_MIN, 1, INT64_MAX, 0, INT64_MIN});
}

TEST(GorillaTest, FloatSpecialsIncludingTheSentinel) {
  const float nan = std::numeric_limits<float>::quiet_NaN();  // 0x7FC00000 = the FLOAT sentinel
  ASSERT_EQ(std::bit_cast<uint32_t>(nan), 0x7FC00000u);
  const float inf = std::numeric_limits<float>::infinity();
  const float denorm_min = std::numeric_limits<float>::denorm_min();
  const float payload_nan = std::bit_cast<float>(uint32_t{0xFFA00001});
  ExpectRoundTrip<float>({nan, 1.0f, nan, nan, -inf, inf, -0.0f, 0.0f, denorm_min, -denorm_min,
                          std::numeric_limits<float>::min(), std::numeric_limits<float>::max(),
                          payload_nan, -std::numeric_limits<float>::max(), nan});
}

TEST(GorillaTest, DoubleSpecialsIncludingTheSentinel) {
  const double nan = std::numeric_limits<double>::quiet_NaN();  // 0x7FF8000000000000 = sentinel
  ASSERT_EQ(std::bit_cast<uint64_t>(nan), 0x7FF8000000000000u);
  const double inf = std::numeric_limits<double>::infinity();
  const double denorm_min = std::numeric_limits<double>::denorm_min();
  const double payload_nan = std::bit_cast<double>(uint64_t{0xFFF4000000000001});
  ExpectRoundTrip<double>({nan, 1.0, nan, nan, -inf, inf, -0.0, 0.0, denorm_min, -denorm_min,
                           std::numeric_limits<double>::min(), std::numeric_limits<double>::max(),
                           payload_nan, -std::numeric_limits<double>::max(), nan});
}

TEST(GorillaTest, XorShapesAtTheEdgesOfTheLengthFields) {
  // XORs with S = 64 (L = T = 0), T = 63 (only the top bit), L = 63 (only the low bit), and
  // '10' reuses right after each of them.
  ExpectRoundTrip<int64_t>({0, INT64_MIN + 1, 0, INT64_MIN, 0, 1, 0, 3, 2, -1, 0});
  ExpectRoundTrip<int32_t>({0, INT32_MIN + 1, 0, INT32_MIN, 0, 1, 0, 3, 2, -1, 0});
}

template <typename T>
std::vector<T> RandomWalk(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> values;
  if constexpr (std::is_floating_point_v<T>) {
    // Sensor-like: two decimals, small steps, occasional repeats (what GORILLA is used for).
    double v = 250.0;
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 4 != 0) v = std::round((v + (static_cast<double>(rng() % 201) - 100) / 100.0) * 100) / 100;
      values.push_back(static_cast<T>(v));
    }
  } else {
    using U = std::make_unsigned_t<T>;
    U v = 1000;
    for (size_t i = 0; i < n; ++i) {
      switch (rng() % 4) {
        case 0: break;                                          // repeat
        case 1: v += static_cast<U>(rng() % 64); break;         // small step
        case 2: v -= static_cast<U>(rng() % 100000); break;     // larger step, may wrap
        default: v = static_cast<U>(rng()); break;              // jump anywhere
      }
      values.push_back(static_cast<T>(v));
    }
  }
  return values;
}

TEST(GorillaTest, LongRandomWalks) {
  ExpectRoundTrip(RandomWalk<int32_t>(20000, 1));
  ExpectRoundTrip(RandomWalk<int64_t>(20000, 2));
  ExpectRoundTrip(RandomWalk<float>(20000, 3));
  ExpectRoundTrip(RandomWalk<double>(20000, 4));
}

TEST(GorillaTest, RandomBitPatterns) {
  std::mt19937_64 rng(5);
  std::vector<double> d;
  std::vector<float> f;
  for (int i = 0; i < 5000; ++i) {
    d.push_back(std::bit_cast<double>(rng()));
    f.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
  }
  ExpectRoundTrip(d);
  ExpectRoundTrip(f);
}

TEST(GorillaTest, IgnoresBytesAfterTheCountedValues) {
  const Encoded enc = EncodeGorilla<64>({1, 2, 3, 4});
  int64_t out[2];
  absl::StatusOr<size_t> consumed = DecodeGorillaInt64s(enc.bytes, 2, out);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 2);
  EXPECT_LT(*consumed, enc.value_bytes);
}

// Every prefix shorter than the values' bytes fails with DataLoss; longer ones decode.
template <typename T>
void ExpectTruncationDetected(const std::vector<T>& values) {
  const Encoded enc = EncodeGorilla<sizeof(T) * 8>(BitsOf(values));
  std::vector<T> got(values.size());
  for (size_t len = 0; len <= enc.bytes.size(); ++len) {
    // A fresh heap copy of exactly `len` bytes lets ASan see any read past the end.
    const std::unique_ptr<char[]> copy(new char[len == 0 ? 1 : len]);
    std::memcpy(copy.get(), enc.bytes.data(), len);
    absl::StatusOr<size_t> consumed = Decode(std::string_view(copy.get(), len), values.size(), got.data());
    if (len < enc.value_bytes) {
      ASSERT_FALSE(consumed.ok()) << "prefix " << len;
      EXPECT_EQ(consumed.status().code(), absl::StatusCode::kDataLoss);
      EXPECT_THAT(consumed.status().message(), HasSubstr("truncated"));
    } else {
      ASSERT_TRUE(consumed.ok()) << "prefix " << len << ": " << consumed.status();
      EXPECT_EQ(BitsOf(got), BitsOf(values));
    }
  }
}

TEST(GorillaTest, TruncationAtEveryPrefix) {
  ExpectTruncationDetected(RandomWalk<int32_t>(300, 6));
  ExpectTruncationDetected(RandomWalk<int64_t>(300, 7));
  ExpectTruncationDetected(RandomWalk<float>(300, 8));
  ExpectTruncationDetected(RandomWalk<double>(300, 9));
}

// Hand-assembled streams, independent of the test encoder.
std::string Bits(std::string_view s) {
  BitWriter w;
  w.WriteString(s);
  return w.bytes();
}

TEST(GorillaTest, HandAssembledInt32Stream) {
  // first = 5; '0' -> 5; '11' L=29 S=2 (T=1) bits '11' -> 5 ^ 6 = 3; '10' (S=2,T=1) bits '01' -> 3 ^ 2 = 1.
  const std::string s = Bits(
      "00000000 00000000 00000000 00000101"
      "0"
      "11 11101 00001 11"
      "10 01");
  int32_t out[4];
  absl::StatusOr<size_t> consumed = DecodeGorillaInt32s(s, 4, out);
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, s.size());
  EXPECT_THAT(out, ::testing::ElementsAre(5, 5, 3, 1));
}

TEST(GorillaTest, HandAssembledDoubleStream) {
  // first = 1.0 (0x3FF0...); '11' L=1 S=1 (T=62) bit '1' -> 0x3FF0.. ^ 0x4000.. = 0x7FF0.. = +inf;
  // '11' L=0 S=1 (T=63) bit '1' -> -inf.
  const std::string s = Bits(
      "0011111111110000000000000000000000000000000000000000000000000000"
      "11 000001 000000 1"
      "11 000000 000000 1");
  double out[3];
  absl::StatusOr<size_t> consumed = DecodeGorillaDoubles(s, 3, out);
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(out[0], 1.0);
  EXPECT_EQ(out[1], std::numeric_limits<double>::infinity());
  EXPECT_EQ(out[2], -std::numeric_limits<double>::infinity());
}

TEST(GorillaTest, RejectsReuseBeforeAnyLengths) {
  // Java's decoder starts with storedLeadingZeros = Integer.MAX_VALUE, so '10' first is garbage.
  const std::string s = Bits("00000000 00000000 00000000 00000101 10 0000 0000" + std::string(40, '0'));
  int32_t out[2];
  absl::StatusOr<size_t> consumed = DecodeGorillaInt32s(s, 2, out);
  ASSERT_FALSE(consumed.ok());
  EXPECT_EQ(consumed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(consumed.status().message(), HasSubstr("'10'"));
  EXPECT_THAT(consumed.status().message(), HasSubstr("byte offset 4"));
}

TEST(GorillaTest, RejectsLengthsWiderThanTheWord) {
  // L = 31, S = 2: 33 > 32.
  const std::string s = Bits("00000000 00000000 00000000 00000101 11 11111 00001 11" + std::string(60, '0'));
  int32_t out[2];
  absl::StatusOr<size_t> consumed = DecodeGorillaInt32s(s, 2, out);
  ASSERT_FALSE(consumed.ok());
  EXPECT_EQ(consumed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(consumed.status().message(), HasSubstr("exceed 32"));
}

TEST(GorillaTest, MessageNamesTypeAndOffset) {
  const Encoded enc = EncodeGorilla<64>(BitsOf(std::vector<double>{1.0, 2.0, 3.0}));
  double out[3];
  absl::StatusOr<size_t> consumed = DecodeGorillaDoubles(std::string_view(enc.bytes).substr(0, 3), 3, out);
  ASSERT_FALSE(consumed.ok());
  EXPECT_THAT(consumed.status().message(), HasSubstr("GORILLA DOUBLE"));
  EXPECT_THAT(consumed.status().message(), HasSubstr("byte offset 0"));
}

// Random bytes and corrupted valid streams: every outcome is a value or DataLoss, never a crash or
// an out-of-bounds read (run under ASan/UBSan).
TEST(GorillaTest, GarbageNeverCrashes) {
  std::mt19937_64 rng(99);
  const std::vector<std::string> valid = {
      EncodeGorilla<32>(BitsOf(RandomWalk<float>(200, 1))).bytes,
      EncodeGorilla<64>(BitsOf(RandomWalk<double>(200, 2))).bytes,
      EncodeGorilla<64>(BitsOf(RandomWalk<int64_t>(200, 3))).bytes};
  for (int iter = 0; iter < 3000; ++iter) {
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
    {
      std::vector<int32_t> out(count);
      const absl::StatusOr<size_t> r = DecodeGorillaInt32s(view, count, out.data());
      if (!r.ok()) EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss) << r.status();
      else EXPECT_LE(*r, view.size());
    }
    {
      std::vector<int64_t> out(count);
      const absl::StatusOr<size_t> r = DecodeGorillaInt64s(view, count, out.data());
      if (!r.ok()) EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss) << r.status();
      else EXPECT_LE(*r, view.size());
    }
    {
      std::vector<float> out(count);
      const absl::StatusOr<size_t> r = DecodeGorillaFloats(view, count, out.data());
      if (!r.ok()) EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss) << r.status();
      else EXPECT_LE(*r, view.size());
    }
    {
      std::vector<double> out(count);
      const absl::StatusOr<size_t> r = DecodeGorillaDoubles(view, count, out.data());
      if (!r.ok()) EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss) << r.status();
      else EXPECT_LE(*r, view.size());
    }
  }
}

}  // namespace
}  // namespace tsread
