// PLAIN (§9.2) decoder tests, on hand-written bytes.
#include "tsread/encoding/plain.h"

#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"

namespace tsread {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using testing::Bytes;
using testing::ExpectDataLoss;
using testing::ExpectEveryProperPrefixIsDataLoss;
using testing::ExpectRealPage;

TEST(PlainTest, BooleansAreAnyNonZeroByte) {
  const std::string stream = Bytes({0, 1, 2, 0xFF, 0});
  std::vector<uint8_t> out(4);
  auto consumed = DecodePlainBooleans(stream, 4, out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, 4u);
  EXPECT_THAT(out, ElementsAre(0, 1, 1, 1));
  ExpectDataLoss(DecodePlainBooleans(stream, 6, out.data()));
}

TEST(PlainTest, Int32sAreZigZagVarints) {
  // 0 -> 00; -1 -> 01; 1 -> 02; 64 -> 80 01; -65 -> 81 01; INT_MAX -> FE FF FF FF 0F;
  // INT_MIN -> FF FF FF FF 0F.
  const std::string stream = Bytes(
      {0x00, 0x01, 0x02, 0x80, 0x01, 0x81, 0x01, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F});
  std::vector<int32_t> out(7);
  auto consumed = DecodePlainInt32s(stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_THAT(out, ElementsAre(0, -1, 1, 64, -65, std::numeric_limits<int32_t>::max(),
                               std::numeric_limits<int32_t>::min()));
  ExpectEveryProperPrefixIsDataLoss(
      stream, [&](std::string_view prefix) { return DecodePlainInt32s(prefix, out.size(), out.data()); });
}

TEST(PlainTest, Int32VarintLongerThan32BitsIsCorrupt) {
  int32_t out;
  ExpectDataLoss(DecodePlainInt32s(Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x1F}), 1, &out));
  auto result = DecodePlainInt32s(Bytes({0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}), 2, &out);
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("stream offset 1"));
}

TEST(PlainTest, Int64sAreBigEndian) {
  const std::string stream = Bytes({0x80, 0,    0,    0,    0,    0,    0,    0,     //
                                    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE,  //
                                    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x99});
  std::vector<int64_t> out(3);
  auto consumed = DecodePlainInt64s(stream, 3, out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, 24u);
  EXPECT_THAT(out, ElementsAre(std::numeric_limits<int64_t>::min(), -2, 0x0102030405060708));
  auto result = DecodePlainInt64s(stream, 4, out.data());
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("stream offset 24"));
}

TEST(PlainTest, FloatsAndDoublesAreBigEndianIeee) {
  // 1.5f = 3FC00000; -0.0f = 80000000; a NaN with payload 7FC00001 keeps its bits.
  const std::string floats = Bytes({0x3F, 0xC0, 0, 0, 0x80, 0, 0, 0, 0x7F, 0xC0, 0, 0x01});
  std::vector<float> f(3);
  ASSERT_TRUE(DecodePlainFloats(floats, 3, f.data()).ok());
  EXPECT_EQ(f[0], 1.5f);
  EXPECT_EQ(std::bit_cast<uint32_t>(f[1]), 0x80000000u);
  EXPECT_EQ(std::bit_cast<uint32_t>(f[2]), 0x7FC00001u);

  // 123.45 = 405EDCCCCCCCCCCD.
  const std::string doubles = Bytes({0x40, 0x5E, 0xDC, 0xCC, 0xCC, 0xCC, 0xCC, 0xCD});
  double d;
  auto consumed = DecodePlainDoubles(doubles, 1, &d);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 8u);
  EXPECT_EQ(d, 123.45);
  ExpectEveryProperPrefixIsDataLoss(doubles,
                                    [&](std::string_view prefix) { return DecodePlainDoubles(prefix, 1, &d); });
  ExpectEveryProperPrefixIsDataLoss(floats,
                                    [&](std::string_view prefix) { return DecodePlainFloats(prefix, 3, f.data()); });
}

TEST(PlainTest, Binaries) {
  // "ab", "", "xyz": lengths are zig-zag varints 04, 00, 06.
  const std::string stream = Bytes({0x04, 'a', 'b', 0x00, 0x06, 'x', 'y', 'z'});
  std::vector<std::string_view> out(3);
  auto consumed = DecodePlainBinaries(stream, 3, out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_THAT(out, ElementsAre("ab", "", "xyz"));
  EXPECT_EQ(out[0].data(), stream.data() + 1);  // a view, not a copy
  ExpectEveryProperPrefixIsDataLoss(
      stream, [&](std::string_view prefix) { return DecodePlainBinaries(prefix, 3, out.data()); });
}

TEST(PlainTest, BinaryNegativeLengthIsCorrupt) {
  std::string_view out;
  auto result = DecodePlainBinaries(Bytes({0x01}), 1, &out);  // svar -1
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("negative length"));
  ExpectDataLoss(DecodePlainBinaries(Bytes({0x7F}), 1, &out));  // svar -64
}

TEST(PlainTest, ZeroCountReadsNothing) {
  auto consumed = DecodePlainInt32s("", 0, nullptr);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
}

TEST(PlainTest, VarintPrimitives) {
  const std::string s = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01});
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  uint64_t v64;
  EXPECT_EQ(ParseUVarInt64(p, p + s.size(), &v64), p + 10);
  EXPECT_EQ(v64, ~uint64_t{0});
  EXPECT_EQ(ZigZagDecode64(v64), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(ParseUVarInt64(p, p + 9, &v64), nullptr);
  const std::string too_long = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02});
  const auto* q = reinterpret_cast<const uint8_t*>(too_long.data());
  EXPECT_EQ(ParseUVarInt64(q, q + too_long.size(), &v64), nullptr);
  uint32_t v32;
  EXPECT_EQ(ParseUVarInt32(p, p + 5, &v32), nullptr);  // 5th byte 0xFF
  EXPECT_EQ(ZigZagDecode32(0xFFFFFFFEu), std::numeric_limits<int32_t>::max());
}

// --- Real pages ----------------------------------------------------------------------------------
// Value streams cut from the Java-written fixtures (../shared/fixtures) with the Python reference
// reader (tools/pyref). Expected: the page statistics Java wrote (first, last, min, max; the number
// of trues for BOOLEAN) and an FNV-1a hash of the values pyref decodes from the same bytes.

// table_enc_PLAIN.tsfile, column f_int32 (INT32, PLAIN): its smallest page, 73 values in 146 bytes.
TEST(PlainTest, RealPageInt32s) {
  ExpectRealPage<int32_t>(
      DecodePlainInt32s,
      {.hex = "881188119a119a119a119a119e119e119e119e119e119e119e119e11a611a611ba11ba11ba11ce11ce11ce11de11dc11"
              "d011d211d211d211d211da11ce11ce11c611cc11cc11cc11cc11cc11cc11cc11cc11cc11cc11cc11cc11cc11cc11cc11"
              "cc11cc11cc11ce11ce11c611d611c611c611c411b411b411ae11ae11ae11ae11a411a411941186118611861198119811"
              "8811",
       .count = 73,
       .first = 1092,
       .last = 1092,
       .min = 1091,
       .max = 1135,
       .fnv1a = 0x62645993f158ca7bu});
}

}  // namespace
}  // namespace tsread
