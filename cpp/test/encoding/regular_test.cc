// REGULAR (§9.9) decoder tests on hand-built blocks.
#include "tsread/encoding/regular.h"

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
using testing::PutBigEndian;
using testing::RegularBlock;

TEST(RegularTest, WithoutMissingPoints) {
  const std::string stream =
      RegularBlock<int32_t>(4, 10, 100) + RegularBlock<int32_t>(1, 0, -5) + RegularBlock<int32_t>(3, -3, 0);
  std::vector<int32_t> out(8);
  auto consumed = DecodeRegularInt32s(stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_THAT(out, ElementsAre(100, 110, 120, 130, -5, 0, -3, -6));
}

TEST(RegularTest, WithMissingPoints) {
  // Grid of 12 points, step 1000 from 5000; present: 0, 1, 4, 8, 11 (bit 0 of byte 0 ... bit 3 of
  // byte 1): byte 0 = 0b0001'0011, byte 1 = 0b0000'1001.
  const std::string stream = RegularBlock<int64_t>(12, 1000, 5000, Bytes({0x13, 0x09}));
  std::vector<int64_t> out(5);
  auto consumed = DecodeRegularInt64s(stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_THAT(out, ElementsAre(5000, 6000, 9000, 13000, 16000));
}

TEST(RegularTest, FirstPointIsReturnedEvenIfBitZeroIsClear) {
  // Java's RegularDataDecoder returns g_0 for every block before consulting the bitmap.
  const std::string stream = RegularBlock<int32_t>(3, 2, 1, Bytes({0x04})) + RegularBlock<int32_t>(2, 1, 50);
  std::vector<int32_t> out(4);
  ASSERT_TRUE(DecodeRegularInt32s(stream, out.size(), out.data()).ok());
  EXPECT_THAT(out, ElementsAre(1, 5, 50, 51));
}

TEST(RegularTest, WrapAround) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const std::string stream = RegularBlock<int64_t>(3, kMax, kMax);
  std::vector<int64_t> out(3);
  ASSERT_TRUE(DecodeRegularInt64s(stream, 3, out.data()).ok());
  EXPECT_THAT(out, ElementsAre(kMax, -2, kMax - 2));
  const std::string missing = RegularBlock<int32_t>(9, std::numeric_limits<int32_t>::max(), 7, Bytes({0x00, 0x01}));
  std::vector<int32_t> ints(2);
  ASSERT_TRUE(DecodeRegularInt32s(missing, 2, ints.data()).ok());
  EXPECT_THAT(ints, ElementsAre(7, static_cast<int32_t>(7u + 8u * 0x7FFFFFFFu)));
}

TEST(RegularTest, CountEndingInsideABlock) {
  const std::string stream = RegularBlock<int32_t>(1000000, 1, 0) + "junk";
  std::vector<int32_t> out(3);
  auto consumed = DecodeRegularInt32s(stream, 3, out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size() - 4);
  EXPECT_THAT(out, ElementsAre(0, 1, 2));
}

TEST(RegularTest, EveryTruncatedPrefixIsDataLoss) {
  const std::string stream = RegularBlock<int64_t>(12, 1000, 5000, Bytes({0x13, 0x09})) + RegularBlock<int64_t>(2, 1, 1);
  std::vector<int64_t> out(7);
  ExpectEveryProperPrefixIsDataLoss(
      stream, [&](std::string_view prefix) { return DecodeRegularInt64s(prefix, out.size(), out.data()); });
}

TEST(RegularTest, MalformedBlocks) {
  int32_t out[8];
  ExpectDataLoss(DecodeRegularInt32s(RegularBlock<int32_t>(0, 1, 1), 1, out));
  ExpectDataLoss(DecodeRegularInt32s(RegularBlock<int32_t>(-3, 1, 1), 1, out));
  ExpectDataLoss(DecodeRegularInt32s(RegularBlock<int32_t>(1, 1, 1, Bytes({0x01})), 1, out));  // missing needs n >= 2
  // Last grid point not marked; bitmap shorter than the grid.
  auto result = DecodeRegularInt32s(RegularBlock<int32_t>(4, 1, 1, Bytes({0x07})), 1, out);
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("REGULAR INT32 bitmap at stream offset 0"));
  ExpectDataLoss(DecodeRegularInt32s(RegularBlock<int32_t>(9, 1, 1, Bytes({0xFF})), 1, out));
  // Negative bitmap length.
  std::string negative = {1, '\xFF', '\xFF', '\xFF', '\xFF'};
  negative += RegularBlock<int32_t>(2, 1, 1).substr(1);
  ExpectDataLoss(DecodeRegularInt32s(negative, 1, out));
}

TEST(RegularTest, MoreValuesRequestedThanTheStreamHolds) {
  std::vector<int32_t> out(6);
  auto result = DecodeRegularInt32s(RegularBlock<int32_t>(5, 1, 1), 6, out.data());
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("5 of 6 values"));
}

}  // namespace
}  // namespace tsread
