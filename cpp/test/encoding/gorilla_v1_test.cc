// GORILLA_V1 decoding (format reference §9.10). Streams come from a test-only encoder that
// follows Java's SinglePrecisionEncoderV1 / DoublePrecisionEncoderV1 or from hand-assembled bits.
#include "tsread/encoding/gorilla_v1.h"

#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
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

struct Encoded {
  std::string bytes;
  size_t value_bytes = 0;  // bytes holding the values (without the closing NaN)
};

// Java's Single/DoublePrecisionEncoderV1 over W-bit patterns: first value little-endian, then
// '0' / '10' (within the previous value's lz..tz) / '11' (new lz, len).
template <int W>
Encoded EncodeGorillaV1(const std::vector<uint64_t>& values) {
  using Bits = std::conditional_t<W == 32, uint32_t, uint64_t>;
  constexpr int kLeadingBits = W == 32 ? 5 : 6;
  constexpr int kLengthBits = W == 32 ? 6 : 7;
  const Bits nan_bits = W == 32 ? Bits(0x7FC00000u) : Bits(0x7FF8000000000000ull);
  std::string head;
  BitWriter w;
  bool first = true;
  Bits prev = 0;
  auto encode = [&](Bits v) {
    if (first) {
      for (int b = 0; b < W / 8; ++b) head.push_back(static_cast<char>((v >> (8 * b)) & 0xFF));
      prev = v;
      first = false;
      return;
    }
    const Bits x = v ^ prev;
    if (x == 0) {
      w.PutBit(false);
    } else {
      const int prev_lz = std::countl_zero(prev), prev_tz = std::countr_zero(prev);
      const int lz = std::countl_zero(x), tz = std::countr_zero(x);
      if (lz >= prev_lz && tz >= prev_tz) {
        w.WriteString("10");
        w.Write(x >> prev_tz, W - prev_lz - prev_tz);
      } else {
        w.WriteString("11");
        w.Write(static_cast<uint64_t>(lz), kLeadingBits);
        w.Write(static_cast<uint64_t>(W - lz - tz), kLengthBits);
        w.Write(x >> tz, W - lz - tz);
      }
    }
    prev = v;
  };
  for (uint64_t v : values) encode(static_cast<Bits>(v));
  Encoded out;
  const size_t value_bits = w.bit_count();
  encode(nan_bits);
  out.bytes = head + w.bytes();
  out.value_bytes = values.empty() ? 0 : W / 8 + (value_bits + 7) / 8;
  return out;
}

constexpr testing::TypedDecoder Decode(DecodeGorillaV1Floats, DecodeGorillaV1Doubles);

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values) {
  const Encoded enc = EncodeGorillaV1<sizeof(T) * 8>(BitsOf(values));
  std::vector<T> got(values.size());
  absl::StatusOr<size_t> consumed = Decode(enc.bytes, values.size(), got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, enc.value_bytes);
  EXPECT_EQ(BitsOf(got), BitsOf(values));
}

template <typename T>
std::vector<T> Specials() {
  using L = std::numeric_limits<T>;
  return {L::quiet_NaN(), T(1), L::quiet_NaN(), L::quiet_NaN(), -L::infinity(), L::infinity(), T(-0.0),
          T(0), T(0), L::denorm_min(), -L::denorm_min(), L::min(), L::max(), T(0), -L::max(), T(2.5),
          L::quiet_NaN()};
}

// Sensor-like FLOAT/DOUBLE walks from 20.0.
template <typename T>
std::vector<T> RandomWalk(size_t n, uint64_t seed) {
  return testing::RandomWalk<T>(n, seed, {.start = 20.0});
}

TEST(GorillaV1Test, ZeroCountReadsNothing) {
  absl::StatusOr<size_t> consumed = DecodeGorillaV1Floats("", 0, nullptr);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
}

TEST(GorillaV1Test, OneValueIsLittleEndian) {
  // 1.0f = 0x3F800000, stored as 00 00 80 3F.
  const std::string s("\x00\x00\x80\x3F", 4);
  float f;
  absl::StatusOr<size_t> consumed = DecodeGorillaV1Floats(s, 1, &f);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 4u);
  EXPECT_EQ(f, 1.0f);
  ExpectRoundTrip<double>({-3.75});
}

TEST(GorillaV1Test, Repeats) {
  ExpectRoundTrip<float>(std::vector<float>(50, 7.25f));
  ExpectRoundTrip<double>(std::vector<double>(50, -7.25));
}

TEST(GorillaV1Test, SpecialsIncludingNaNInTheMiddle) {
  ExpectRoundTrip(Specials<float>());
  ExpectRoundTrip(Specials<double>());
}

TEST(GorillaV1Test, LongRandomWalks) {
  ExpectRoundTrip(RandomWalk<float>(20000, 1));
  ExpectRoundTrip(RandomWalk<double>(20000, 2));
}

TEST(GorillaV1Test, RandomBitPatterns) {
  const testing::RandomFloatingBits random = testing::RandomBitPatterns(3);
  ExpectRoundTrip(random.doubles);
  ExpectRoundTrip(random.floats);
}

template <typename T>
void ExpectTruncationDetected(const std::vector<T>& values) {
  const Encoded enc = EncodeGorillaV1<sizeof(T) * 8>(BitsOf(values));
  testing::ExpectTruncationDetected(Decode, enc.bytes, enc.value_bytes, values, "truncated");
}

TEST(GorillaV1Test, TruncationAtEveryPrefix) {
  ExpectTruncationDetected(RandomWalk<float>(300, 4));
  ExpectTruncationDetected(RandomWalk<double>(300, 5));
  ExpectTruncationDetected(Specials<double>());
}

TEST(GorillaV1Test, HandAssembledFloatStream) {
  // first = 0x3F800000 (1.0f): lz = 2, tz = 23.
  // '10': 7 bits 0000001 placed at bits 29..23 -> XOR 0x00800000 -> 0x3F000000 (0.5f)
  // '11': lz = 1, len = 1, bit '1' -> XOR 0x40000000 -> 0x7F000000 (1.7014118e38f)
  // '0': repeat.
  const std::string s = std::string("\x00\x00\x80\x3F", 4) + Bits("10 0000001  11 00001 000001 1  0");
  float out[4];
  absl::StatusOr<size_t> consumed = DecodeGorillaV1Floats(s, 4, out);
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, s.size());
  EXPECT_EQ(std::bit_cast<uint32_t>(out[0]), 0x3F800000u);
  EXPECT_EQ(std::bit_cast<uint32_t>(out[1]), 0x3F000000u);
  EXPECT_EQ(std::bit_cast<uint32_t>(out[2]), 0x7F000000u);
  EXPECT_EQ(std::bit_cast<uint32_t>(out[3]), 0x7F000000u);
}

TEST(GorillaV1Test, ReuseAfterZeroReadsNothing) {
  // Previous value 0: Java's '10' loop runs W - 32 - 32 < 0 times, the value stays 0.
  const std::string s = std::string("\x00\x00\x00\x00", 4) + Bits("10 10 0");
  float out[4];
  absl::StatusOr<size_t> consumed = DecodeGorillaV1Floats(s, 4, out);
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, 5u);
  for (float f : out) EXPECT_EQ(std::bit_cast<uint32_t>(f), 0u);
}

TEST(GorillaV1Test, RejectsLengthsWiderThanTheWord) {
  // lz = 31, len = 2: 33 > 32.
  const std::string s = std::string("\x00\x00\x80\x3F", 4) + Bits("11 11111 000010 11 0000000");
  float out[2];
  absl::StatusOr<size_t> consumed = DecodeGorillaV1Floats(s, 2, out);
  ASSERT_FALSE(consumed.ok());
  EXPECT_EQ(consumed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(consumed.status().message(), HasSubstr("GORILLA_V1 FLOAT"));
  EXPECT_THAT(consumed.status().message(), HasSubstr("byte offset 4"));
}

// Random bytes and corrupted valid streams: every outcome is a value or DataLoss, never a crash or
// an out-of-bounds read (run under ASan/UBSan).
TEST(GorillaV1Test, GarbageNeverCrashes) {
  const std::vector<std::string> valid = {EncodeGorillaV1<32>(BitsOf(RandomWalk<float>(200, 1))).bytes,
                                          EncodeGorillaV1<64>(BitsOf(RandomWalk<double>(200, 2))).bytes};
  testing::ExpectGarbageNeverCrashes<float, double>(Decode, valid);
}

}  // namespace
}  // namespace tsread
