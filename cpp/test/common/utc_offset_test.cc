#include "tsread/common/utc_offset.h"

#include "gtest/gtest.h"

namespace tsread {
namespace {

TEST(UtcOffsetTest, ReadsTheThreeIsoForms) {
  EXPECT_EQ(ParseUtcOffset("+05:30", 23), 5 * 3600 + 30 * 60);
  EXPECT_EQ(ParseUtcOffset("-0800", 23), -8 * 3600);
  EXPECT_EQ(ParseUtcOffset("+05", 23), 5 * 3600);
  EXPECT_EQ(ParseUtcOffset("-00:00", 23), 0);
  EXPECT_EQ(ParseUtcOffset("+23:59", 23), 23 * 3600 + 59 * 60);
}

TEST(UtcOffsetTest, RefusesEverythingElse) {
  for (const char* bad : {"", "+", "05:30", "+5", "+5:30", "+05:3", "+05:", "+0530x", "+05:300", "+05-30", "+a5",
                          "+05:6a", " +05", "+05 ", "++05"}) {
    EXPECT_EQ(ParseUtcOffset(bad, 23), std::nullopt) << bad;
  }
  EXPECT_EQ(ParseUtcOffset("+05:60", 23), std::nullopt);
  EXPECT_EQ(ParseUtcOffset("+24:00", 23), std::nullopt);
  EXPECT_EQ(ParseUtcOffset("+19:00", 18), std::nullopt);  // beyond a fixed zone's range
  EXPECT_EQ(ParseUtcOffset("-18:00", 18), -18 * 3600);
}

}  // namespace
}  // namespace tsread
