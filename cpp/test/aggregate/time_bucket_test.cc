// TimeBuckets (time_bucket.h): buckets of a width from an origin, times before it floor down, and
// origins anywhere in the int64 range give the same boundaries as their remainder.
#include "tsread/aggregate/time_bucket.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace tsread {
namespace {

TEST(TimeBucketsTest, OriginZeroFloorsTimes) {
  const TimeBuckets b(10);
  EXPECT_EQ(b.Start(b.Index(0)), 0);
  EXPECT_EQ(b.Start(b.Index(9)), 0);
  EXPECT_EQ(b.Start(b.Index(10)), 10);
  EXPECT_EQ(b.Start(b.Index(-1)), -10);
  EXPECT_EQ(b.End(b.Index(-1)), -1);
}

TEST(TimeBucketsTest, AnOriginShiftsTheBoundaries) {
  const TimeBuckets b(10, 3);  // [3, 13), [13, 23), [-7, 3) ...
  EXPECT_EQ(b.Start(b.Index(3)), 3);
  EXPECT_EQ(b.Start(b.Index(12)), 3);
  EXPECT_EQ(b.End(b.Index(12)), 12);
  EXPECT_EQ(b.Start(b.Index(13)), 13);
  EXPECT_EQ(b.Start(b.Index(2)), -7);
  EXPECT_EQ(b.Start(b.Index(-8)), -17);
  // IoTDB's GROUP BY ([1700000000123, ...), 1h): buckets start at the start.
  const int64_t start = 1700000000123, hour = 3600000;
  const TimeBuckets iotdb(hour, start);
  EXPECT_EQ(iotdb.Start(iotdb.Index(start)), start);
  EXPECT_EQ(iotdb.Start(iotdb.Index(start + hour - 1)), start);
  EXPECT_EQ(iotdb.Start(iotdb.Index(start + hour)), start + hour);
  EXPECT_EQ(iotdb.Start(iotdb.Index(start - 1)), start - hour);
}

TEST(TimeBucketsTest, FarOriginsAreTheirRemainder) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  for (int64_t origin : {kMin, kMin + 1, kMax, kMax - 1, int64_t{-3}, int64_t{1000003}}) {
    SCOPED_TRACE(origin);
    const TimeBuckets far(1000, origin);
    const TimeBuckets near(1000, ((origin % 1000) + 1000) % 1000);
    for (int64_t t : {kMin, kMin + 999, int64_t{-1}, int64_t{0}, int64_t{123456}, kMax - 999, kMax}) {
      EXPECT_EQ(far.Index(t), near.Index(t)) << t;
      EXPECT_EQ(far.Start(far.Index(t)), near.Start(near.Index(t))) << t;
      EXPECT_LE(far.Start(far.Index(t)), t);
      EXPECT_GE(far.End(far.Index(t)), t);
    }
  }
}

}  // namespace
}  // namespace tsread
