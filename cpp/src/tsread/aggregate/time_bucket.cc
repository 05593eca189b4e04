// Calendar buckets (time_bucket.h): times to local civil days and months of the zone and back,
// through Abseil's time zone rules (the system's tz database).
#include "tsread/aggregate/time_bucket.h"

#include <charconv>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/common/utc_offset.h"

namespace tsread {
namespace {

// floor(a / b) for b > 0.
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0); }

// Stored time `t` (units_per_second a second) as an instant: whole seconds, floored.
absl::Time InstantOf(int64_t t, int64_t units_per_second) {
  return absl::FromUnixSeconds(FloorDiv(t, units_per_second));
}

// The stored time of instant `at` (whole seconds), saturated to the int64 range.
int64_t StoredTimeOf(absl::Time at, int64_t units_per_second) {
  const __int128 t = static_cast<__int128>(absl::ToUnixSeconds(at)) * units_per_second;
  if (t < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  if (t > std::numeric_limits<int64_t>::max()) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(t);
}

// The first instant of local day `day` in `zone`: its midnight, or where a daylight-saving change
// skips midnight, the instant the day's clock starts at.
absl::Time StartOfDay(absl::CivilDay day, const absl::TimeZone& zone) {
  const absl::TimeZone::TimeInfo info = zone.At(absl::CivilSecond(day));
  return info.kind == absl::TimeZone::TimeInfo::SKIPPED ? info.trans : info.pre;
}

}  // namespace

absl::StatusOr<absl::TimeZone> ParseTimeZone(std::string_view name) {
  if (name == "UTC" || name == "Z" || name == "utc") return absl::UTCTimeZone();
  if (std::optional<int> offset = ParseUtcOffset(name, 18)) return absl::FixedTimeZone(*offset);
  absl::TimeZone zone;
  // Only names of the tz database's form: no path tricks reach the file system.
  const bool plausible = !name.empty() && name.find("..") == std::string_view::npos && name.front() != '/';
  if (plausible && absl::LoadTimeZone(std::string(name), &zone)) return zone;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown time zone \"", std::string(name),
      "\": give a tz database name (Europe/Berlin, from the system's zoneinfo), UTC or an offset (+05:30)"));
}

std::optional<std::pair<CalendarUnit, int64_t>> ParseCalendarBucket(std::string_view text, bool days_are_calendar) {
  int64_t count = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), count);
  if (r.ec != std::errc() || count <= 0) return std::nullopt;
  const std::string_view unit = text.substr(static_cast<size_t>(r.ptr - text.data()));
  if (unit == "w" || unit == "week" || unit == "weeks") return std::make_pair(CalendarUnit::kWeek, count);
  if (unit == "mo" || unit == "month" || unit == "months") return std::make_pair(CalendarUnit::kMonth, count);
  if (days_are_calendar && (unit == "d" || unit == "day" || unit == "days")) {
    return std::make_pair(CalendarUnit::kDay, count);
  }
  return std::nullopt;
}

TimeBuckets::TimeBuckets(const CalendarBuckets& calendar) : calendar_(calendar) {
  if (calendar_.count < 1) calendar_.count = 1;
  if (calendar_.units_per_second < 1) calendar_.units_per_second = 1;
  if (calendar_.origin.has_value()) {
    const absl::CivilSecond local =
        absl::ToCivilSecond(InstantOf(*calendar_.origin, calendar_.units_per_second), calendar_.zone);
    origin_day_ = absl::CivilDay(local);
    origin_month_ = absl::CivilMonth(local);
  } else {
    origin_day_ = absl::CivilDay(2000, 1, 3);
    origin_month_ = absl::CivilMonth(2000, 1);
  }
}

int64_t TimeBuckets::CalendarIndex(int64_t t) const {
  const absl::CivilSecond local = absl::ToCivilSecond(InstantOf(t, calendar_.units_per_second), calendar_.zone);
  switch (calendar_.unit) {
    case CalendarUnit::kMonth:
      return FloorDiv(absl::CivilMonth(local) - origin_month_, calendar_.count);
    case CalendarUnit::kWeek:
      return FloorDiv(absl::CivilDay(local) - origin_day_, 7 * calendar_.count);
    default:
      return FloorDiv(absl::CivilDay(local) - origin_day_, calendar_.count);
  }
}

int64_t TimeBuckets::CalendarStart(int64_t index) const {
  absl::CivilDay day;
  if (calendar_.unit == CalendarUnit::kMonth) {
    day = absl::CivilDay(origin_month_ + index * calendar_.count);
  } else {
    day = origin_day_ + index * calendar_.count * (calendar_.unit == CalendarUnit::kWeek ? 7 : 1);
  }
  return StoredTimeOf(StartOfDay(day, calendar_.zone), calendar_.units_per_second);
}

}  // namespace tsread
