// TimeBuckets (time_bucket.h): buckets of a width from an origin, times before it floor down, and
// origins anywhere in the int64 range give the same boundaries as their remainder; calendar
// buckets at local midnights of a time zone (the expected instants written out as epoch seconds).
#include "tsread/aggregate/time_bucket.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
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

constexpr int64_t kMs = 1000;
constexpr int64_t k2024 = 1704067200;  // 2024-01-01T00:00:00Z, a Monday

CalendarBuckets Calendar(CalendarUnit unit, int64_t count, const std::string& zone = "UTC") {
  CalendarBuckets c;
  c.unit = unit;
  c.count = count;
  c.zone = ParseTimeZone(zone).value();
  return c;
}

TEST(TimeBucketsTest, MonthsRunFromTheFirstToTheFirst) {
  const TimeBuckets b(Calendar(CalendarUnit::kMonth, 1));
  const int64_t feb = 1706745600 * kMs;  // 2024-02-01T00:00:00Z
  const int64_t mar = 1709251200 * kMs;  // 2024-03-01T00:00:00Z: February 2024 has 29 days
  EXPECT_EQ(b.Start(b.Index(feb - 1)), k2024 * kMs);
  EXPECT_EQ(b.Start(b.Index(feb)), feb);
  EXPECT_EQ(b.End(b.Index(feb)), mar - 1);
  EXPECT_EQ(b.Index(mar), b.Index(feb) + 1);
  // Quarters counted from January 2000: January, April, July, October.
  const TimeBuckets q(Calendar(CalendarUnit::kMonth, 3));
  EXPECT_EQ(q.Start(q.Index(mar)), k2024 * kMs);
}

TEST(TimeBucketsTest, WeeksStartOnMondayUnlessTheOriginSaysOtherwise) {
  const TimeBuckets b(Calendar(CalendarUnit::kWeek, 1));
  const int64_t wednesday = (k2024 + 2 * 86400 + 3600) * kMs;
  EXPECT_EQ(b.Start(b.Index(wednesday)), k2024 * kMs);
  EXPECT_EQ(b.End(b.Index(wednesday)), (k2024 + 7 * 86400) * kMs - 1);
  CalendarBuckets sunday = Calendar(CalendarUnit::kWeek, 1);
  sunday.origin = (k2024 - 86400 + 12 * 3600) * kMs;  // noon on Sunday 2023-12-31: its day counts
  const TimeBuckets s(sunday);
  EXPECT_EQ(s.Start(s.Index(wednesday)), (k2024 - 86400) * kMs);
}

TEST(TimeBucketsTest, DaysFollowTheZonesClockAcrossDaylightSavingChanges) {
  const TimeBuckets b(Calendar(CalendarUnit::kDay, 1, "Europe/Berlin"));
  // 2024-03-31 in Berlin: midnight is 23:00Z the day before (CET), the next midnight 22:00Z (CEST).
  const int64_t spring = 1711839600 * kMs, spring_next = 1711922400 * kMs;
  EXPECT_EQ(b.Start(b.Index(spring)), spring);
  EXPECT_EQ(b.Start(b.Index(spring - 1)), spring - 24 * 3600 * kMs);
  EXPECT_EQ(b.End(b.Index(spring)), spring_next - 1);  // 23 hours
  // 2024-10-27: 25 hours, 22:00Z to 23:00Z the next day.
  const int64_t autumn = 1729980000 * kMs, autumn_next = 1730070000 * kMs;
  EXPECT_EQ(b.Start(b.Index(autumn + 24 * 3600 * kMs)), autumn);
  EXPECT_EQ(b.Start(b.Index(autumn_next)), autumn_next);
  // Microseconds: the same boundaries in the file's unit.
  CalendarBuckets us = Calendar(CalendarUnit::kDay, 1, "Europe/Berlin");
  us.units_per_second = 1'000'000;
  const TimeBuckets m(us);
  EXPECT_EQ(m.Start(m.Index(spring * 1000 + 5)), spring * 1000);
}

TEST(TimeBucketsTest, OffsetsAndUtcNeedNoDatabase) {
  const TimeBuckets b(Calendar(CalendarUnit::kDay, 1, "+05:30"));
  EXPECT_EQ(b.Start(b.Index(k2024 * kMs)), (k2024 - 5 * 3600 - 1800) * kMs);
  EXPECT_EQ(ParseTimeZone("-0800").value(), absl::FixedTimeZone(-8 * 3600));
  EXPECT_EQ(ParseTimeZone("Z").value(), absl::UTCTimeZone());
  for (const char* bad : {"Mars/Olympus", "", "../../etc/passwd", "/etc/localtime", "+25:00", "+5"}) {
    EXPECT_EQ(ParseTimeZone(bad).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

TEST(TimeBucketsTest, CalendarUnitsByName) {
  using Parsed = std::optional<std::pair<CalendarUnit, int64_t>>;
  EXPECT_EQ(ParseCalendarBucket("2w", false), Parsed(std::make_pair(CalendarUnit::kWeek, 2)));
  EXPECT_EQ(ParseCalendarBucket("3mo", false), Parsed(std::make_pair(CalendarUnit::kMonth, 3)));
  EXPECT_EQ(ParseCalendarBucket("1month", false), Parsed(std::make_pair(CalendarUnit::kMonth, 1)));
  EXPECT_EQ(ParseCalendarBucket("1d", false), std::nullopt);  // 24 hours without a time zone
  EXPECT_EQ(ParseCalendarBucket("1d", true), Parsed(std::make_pair(CalendarUnit::kDay, 1)));
  for (const char* fixed : {"10m", "1h", "500", "0w", "-1mo", "w"}) EXPECT_EQ(ParseCalendarBucket(fixed, true), std::nullopt) << fixed;
}

}  // namespace
}  // namespace tsread
