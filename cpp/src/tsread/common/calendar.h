// Calendar arithmetic for TsFile DATE values (format reference §11: an int32 yyyyMMdd) and
// timestamps: days since 1970-01-01 in the proleptic Gregorian calendar, without libc time calls
// (no locale, no time zone, no range limit of time_t). Shared by the front ends (Arrow, DuckDB,
// the CLI's time parsing).
#ifndef TSREAD_COMMON_CALENDAR_H_
#define TSREAD_COMMON_CALENDAR_H_

#include <cstdint>
#include <optional>

namespace tsread {

// Days since 1970-01-01 of year `y`, month `m` (1-12), day `d` (H. Hinnant's days_from_civil).
constexpr int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// Whether year `y` has a 29 February.
constexpr bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// The days of month `m` (1-12) of year `y`.
constexpr int DaysInMonth(int64_t y, int64_t m) {
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeapYear(y) ? 29 : kDays[m - 1];
}

// A stored DATE (yyyyMMdd) as days since 1970-01-01; nullopt when it names no calendar date
// (negative, month 0 or 13, 30 February...).
constexpr std::optional<int32_t> DaysFromYyyyMmDd(int32_t value) {
  const int64_t y = value / 10000, m = (value / 100) % 100, d = value % 100;
  if (value < 0 || m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, m)) {
    return std::nullopt;
  }
  return static_cast<int32_t>(DaysFromCivil(y, m, d));
}

}  // namespace tsread

#endif  // TSREAD_COMMON_CALENDAR_H_
