// GORILLA (v2) decoding (format reference §9.6). Streams come from a test-only encoder that
// follows Java's GorillaEncoderV2 (sentinel, padding and the extra byte included) or from
// hand-assembled bit strings, never from the decoder under test.
#include "tsread/encoding/gorilla.h"

#include <bit>
#include <climits>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::Bits;
using testing::BitsOf;
using testing::BitWriter;
using testing::RandomWalk;

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

constexpr testing::TypedDecoder Decode(DecodeGorillaInt32s, DecodeGorillaInt64s,
                                       DecodeGorillaFloats, DecodeGorillaDoubles);

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

TEST(GorillaTest, LongRandomWalks) {
  ExpectRoundTrip(RandomWalk<int32_t>(20000, 1));
  ExpectRoundTrip(RandomWalk<int64_t>(20000, 2));
  ExpectRoundTrip(RandomWalk<float>(20000, 3));
  ExpectRoundTrip(RandomWalk<double>(20000, 4));
}

TEST(GorillaTest, RandomBitPatterns) {
  const testing::RandomFloatingBits random = testing::RandomBitPatterns(5);
  ExpectRoundTrip(random.doubles);
  ExpectRoundTrip(random.floats);
}

// 32-bit streams of '10' changes of every meaningful width S (1..32) at every offset class,
// separated by gaps of repeats from 0 to past the fast loop's 8 and 48 (a step's gap and a run
// taken at once), the lengths changing now and then ('11'): every way a step of two changes, one
// change, a long gap or a single value can start, and their mixes.
TEST(GorillaTest, ChangesOfEveryWidthBetweenGapsOfEveryLength) {
  std::mt19937_64 rng(11);
  const std::vector<uint64_t> gap_lengths = {0, 1, 2, 7, 8, 9, 10, 20, 47, 48, 49, 60};
  for (uint64_t sig = 1; sig <= 32; ++sig) {
    for (uint64_t repeat_odds : {0u, 2u, 6u}) {  // gaps: none, geometric, mostly long
      std::vector<uint32_t> bits;
      uint32_t value = static_cast<uint32_t>(rng());
      bits.push_back(value);
      uint64_t trailing = rng() % (33 - sig);
      for (size_t i = 0; i < 3000; ++i) {
        if (rng() % 50 == 0) trailing = rng() % (33 - sig);  // new lengths: a '11'
        uint64_t gap = 0;
        if (repeat_odds == 6) {
          gap = gap_lengths[rng() % gap_lengths.size()];
        } else if (repeat_odds == 2) {
          while (rng() % 2 == 0 && gap < 12) ++gap;
        }
        for (uint64_t g = 0; g < gap; ++g) bits.push_back(value);
        // Exactly `sig` meaningful bits from bit `trailing` up: top and bottom bits set.
        uint64_t x = (rng() | 1 | (uint64_t{1} << (sig - 1))) & ((uint64_t{1} << sig) - 1);
        value ^= static_cast<uint32_t>(x << trailing);
        bits.push_back(value);
      }
      std::vector<int32_t> ints;
      std::vector<float> floats;
      for (uint32_t b : bits) {
        ints.push_back(static_cast<int32_t>(b));
        floats.push_back(std::bit_cast<float>(b));
      }
      SCOPED_TRACE(::testing::Message() << "S " << sig << ", repeat odds " << repeat_odds);
      ExpectRoundTrip(ints);
      ExpectRoundTrip(floats);
    }
  }
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
  testing::ExpectTruncationDetected(Decode, enc.bytes, enc.value_bytes, values, "truncated");
}

TEST(GorillaTest, TruncationAtEveryPrefix) {
  ExpectTruncationDetected(RandomWalk<int32_t>(300, 6));
  ExpectTruncationDetected(RandomWalk<int64_t>(300, 7));
  ExpectTruncationDetected(RandomWalk<float>(300, 8));
  ExpectTruncationDetected(RandomWalk<double>(300, 9));
}

// Hand-assembled streams, independent of the test encoder.
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
  const std::vector<std::string> valid = {
      EncodeGorilla<32>(BitsOf(RandomWalk<float>(200, 1))).bytes,
      EncodeGorilla<64>(BitsOf(RandomWalk<double>(200, 2))).bytes,
      EncodeGorilla<64>(BitsOf(RandomWalk<int64_t>(200, 3))).bytes};
  testing::ExpectGarbageNeverCrashes<int32_t, int64_t, float, double>(Decode, valid);
}

}  // namespace
}  // namespace tsread
