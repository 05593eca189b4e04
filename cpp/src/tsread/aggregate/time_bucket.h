// Time buckets. Fixed widths: `origin + floor((t - origin) / width) * width` in the file's time
// unit (times before the origin floor down, so every bucket holds `width` consecutive times).
// Origin 0 by default, as DuckDB's time_bucket for epoch numbers; IoTDB's GROUP BY ([start, end),
// step) starts its buckets at `start`, which an origin gives.
//
// Calendar buckets (CalendarBuckets): N days, weeks or months of a time zone's calendar, each from
// local midnight to local midnight — a day across a daylight-saving change lasts 23 or 25 hours, a
// month 28 to 31 days. They are counted from an origin's local day (month): by default Monday
// 2000-01-03 (January 2000), DuckDB's time_bucket origin, so that weeks start on Mondays.
#ifndef TSREAD_AGGREGATE_TIME_BUCKET_H_
#define TSREAD_AGGREGATE_TIME_BUCKET_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"

namespace tsread {

enum class CalendarUnit : uint8_t { kNone, kDay, kWeek, kMonth };

struct CalendarBuckets {
  CalendarUnit unit = CalendarUnit::kNone;
  int64_t count = 1;  // units a bucket
  absl::TimeZone zone = absl::UTCTimeZone();
  int64_t units_per_second = 1000;  // the file's time unit: 1000 for ms, 10^6 for us, 10^9 for ns
  // Buckets are counted from this time's local day (month) in `zone`; none: 2000-01-03 (2000-01).
  std::optional<int64_t> origin;

  bool enabled() const { return unit != CalendarUnit::kNone; }
};

// A time zone by name: "UTC" (or "Z"), an offset ("+05:30", "-08", "+0530"), or a tz database name
// ("Europe/Berlin", read from the system's zoneinfo). InvalidArgument naming it otherwise.
absl::StatusOr<absl::TimeZone> ParseTimeZone(std::string_view name);

// "3d", "1w", "2mo" (also "week", "month" spelled out) as a calendar unit and count; nullopt for
// text that names no calendar unit (a fixed width: "10m", "1h", digits). `days_are_calendar`: "d"
// names calendar days (a time zone was given) rather than a fixed 24 hours.
std::optional<std::pair<CalendarUnit, int64_t>> ParseCalendarBucket(std::string_view text, bool days_are_calendar);

class TimeBuckets {
 public:
  // width 0: one bucket for all times.
  // The origin is kept modulo the width: the same boundaries, and every index fits an int64.
  explicit TimeBuckets(int64_t width, int64_t origin = 0)
      : width_(width), origin_(width > 0 ? ((origin % width) + width) % width : 0) {}
  // Calendar buckets (calendar.enabled(), count > 0, units_per_second > 0).
  explicit TimeBuckets(const CalendarBuckets& calendar);

  bool enabled() const { return width_ > 0 || calendar_.enabled(); }
  // Which bucket `t` falls in (0 for every time without buckets).
  int64_t Index(int64_t t) const {
    if (calendar_.enabled()) return CalendarIndex(t);
    if (width_ <= 0) return 0;
    const __int128 d = static_cast<__int128>(t) - origin_;
    const __int128 q = d / width_;
    return static_cast<int64_t>((d % width_ != 0 && d < 0) ? q - 1 : q);
  }
  // The first time of bucket `index`; INT64_MIN for the bucket that would start before it (times
  // within `width` of INT64_MIN).
  int64_t Start(int64_t index) const {
    if (calendar_.enabled()) return CalendarStart(index);
    const __int128 start = static_cast<__int128>(index) * width_ + origin_;
    return start < std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::min()
                                                       : static_cast<int64_t>(start);
  }
  // The last time of bucket `index`, INT64_MAX when it would end after it.
  int64_t End(int64_t index) const {
    if (calendar_.enabled()) {
      const int64_t next = CalendarStart(index + 1);
      return next == std::numeric_limits<int64_t>::max() ? next : next - 1;
    }
    const __int128 end = static_cast<__int128>(index) * width_ + origin_ + width_ - 1;
    return end > std::numeric_limits<int64_t>::max() ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(end);
  }

 private:
  int64_t CalendarIndex(int64_t t) const;
  int64_t CalendarStart(int64_t index) const;

  int64_t width_ = 0;
  int64_t origin_ = 0;
  CalendarBuckets calendar_;
  absl::CivilDay origin_day_;      // days and weeks are counted from it
  absl::CivilMonth origin_month_;  // months from it
};

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_TIME_BUCKET_H_
