// RLE encoding of BOOLEAN/INT32 (format reference §9.3): hand-checked packages following Java's
// RleEncoder state machine, and round trips through the reader's decoders.
#include "tsread/write/rle_encoder.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"
#include "tsread/encoding/rle.h"

namespace tsread {
namespace {

using testing::ToHex;

std::string EncodeBools(const std::vector<uint8_t>& values) {
  std::string out;
  EncodeRleBooleans(values.data(), values.size(), out);
  return out;
}

TEST(RleEncoderTest, ThreeBooleansAreOneBitPackedGroup) {
  // L = 4: bitWidth 1, header (1 << 1) | 1, lastCount 3, group 1 0 1 0 0 0 0 0.
  EXPECT_EQ(ToHex(EncodeBools({1, 0, 1})),
            "04"
            "01"
            "03"
            "03"
            "a0");
}

TEST(RleEncoderTest, TenTruesAreOneRleRun) {
  // L = 3: bitWidth 1, header 10 << 1, value 1 (one little-endian byte).
  EXPECT_EQ(ToHex(EncodeBools(std::vector<uint8_t>(10, 1))),
            "03"
            "01"
            "14"
            "01");
}

TEST(RleEncoderTest, RunThenBitPackedTail) {
  // 8 falses: RLE run (16, 0); then the true is bit-packed with lastCount 1.
  std::vector<uint8_t> values(8, 0);
  values.push_back(1);
  EXPECT_EQ(ToHex(EncodeBools(values)),
            "06"
            "01"
            "10"
            "00"
            "03"
            "01"
            "80");
}

TEST(RleEncoderTest, SevenRepeatsStayBitPacked) {
  // Below RLE_MIN_REPEATED_NUM a run stays in the bit-packed group.
  EXPECT_EQ(ToHex(EncodeBools(std::vector<uint8_t>(7, 1))),
            "04"
            "01"
            "03"
            "07"
            "fe");
}

TEST(RleEncoderTest, NonZeroBytesAreTrue) { EXPECT_EQ(EncodeBools({7, 0, 255}), EncodeBools({1, 0, 1})); }

void ExpectBooleansRoundTrip(const std::vector<uint8_t>& values) {
  std::string out;
  EncodeRleBooleans(values.data(), values.size(), out);
  std::vector<uint8_t> decoded(values.size());
  auto used = DecodeRleBooleans(out, values.size(), decoded.data());
  ASSERT_TRUE(used.ok()) << used.status();
  EXPECT_EQ(*used, out.size());
  EXPECT_EQ(decoded, values);
}

TEST(RleEncoderTest, LongRunsSplitAtTheMaximumRepeat) {
  std::vector<uint8_t> values(0x7FFF * 2 + 100, 1);
  values.push_back(0);
  ExpectBooleansRoundTrip(values);
}

TEST(RleEncoderTest, ManyBitPackedGroupsSplitAt63) {
  std::vector<uint8_t> values(63 * 8 * 3 + 5);
  for (size_t i = 0; i < values.size(); ++i) values[i] = (i * 7 + i / 3) % 2;
  ExpectBooleansRoundTrip(values);
}

TEST(RleEncoderTest, RandomBooleansRoundTrip) {
  std::mt19937_64 random(3);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t n = random() % 2000 + 1;
    const uint64_t flip = random() % 50 + 1;
    std::vector<uint8_t> values(n);
    uint8_t v = random() & 1;
    for (size_t i = 0; i < n; ++i) {
      if (random() % flip == 0) v ^= 1;
      values[i] = v;
    }
    ExpectBooleansRoundTrip(values);
  }
}

TEST(RleEncoderTest, Int32sRoundTrip) {
  std::mt19937_64 random(5);
  for (int trial = 0; trial < 100; ++trial) {
    const size_t n = random() % 1000 + 1;
    std::vector<int32_t> values(n);
    int32_t v = 0;
    for (size_t i = 0; i < n; ++i) {
      if (random() % 5 == 0) v = static_cast<int32_t>(random() % 1000) - (trial % 2 ? 500 : 0);
      values[i] = v;
    }
    if (trial == 0) values[0] = std::numeric_limits<int32_t>::min();
    std::string out;
    EncodeRleInt32s(values.data(), n, out);
    std::vector<int32_t> decoded(n);
    auto used = DecodeRleInt32s(out, n, decoded.data());
    ASSERT_TRUE(used.ok()) << used.status();
    EXPECT_EQ(decoded, values);
  }
}

}  // namespace
}  // namespace tsread
