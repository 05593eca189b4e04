#include "time_parse.h"

#include <charconv>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tsread/common/calendar.h"
#include "tsread/common/utc_offset.h"

namespace tsread::cli {
namespace {

constexpr int64_t kMsPerDay = 86400000;


// The inverse (civil_from_days).
void CivilFromDays(int64_t z, int64_t& y, int64_t& m, int64_t& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp + (mp < 10 ? 3 : -9);
  y = yoe + era * 400 + (m <= 2);
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

// Reads exactly `n` digits at `pos` into `out`.
bool Digits(std::string_view s, size_t& pos, size_t n, int64_t& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  pos += n;
  return true;
}

bool Expect(std::string_view s, size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

// ISO-8601 as epoch ms; false when `s` is not one of the accepted forms.
bool ParseIso(std::string_view s, int64_t& ms) {
  size_t pos = 0;
  int64_t year, month, day, hour = 0, minute = 0, second = 0, millis = 0;
  if (!Digits(s, pos, 4, year) || !Expect(s, pos, '-') || !Digits(s, pos, 2, month) || !Expect(s, pos, '-') ||
      !Digits(s, pos, 2, day)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) return false;
  if (pos < s.size() && (s[pos] == 'T' || s[pos] == ' ')) {
    ++pos;
    if (!Digits(s, pos, 2, hour) || !Expect(s, pos, ':') || !Digits(s, pos, 2, minute)) return false;
    if (pos < s.size() && s[pos] == ':') {
      ++pos;
      if (!Digits(s, pos, 2, second)) return false;
      if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
        ++pos;
        size_t digits = 0;
        for (; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, ++digits) {
          if (digits < 3) millis = millis * 10 + (s[pos] - '0');
        }
        if (digits == 0 || digits > 9) return false;
        for (size_t i = digits; i < 3; ++i) millis *= 10;
      }
    }
    if (hour > 23 || minute > 59 || second > 59) return false;
  }
  int64_t offset_minutes = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    const std::optional<int> offset = ParseUtcOffset(s.substr(pos), 23);
    if (!offset) return false;
    offset_minutes = *offset / 60;
    pos = s.size();
  }
  if (pos != s.size()) return false;
  ms = DaysFromCivil(year, month, day) * kMsPerDay + ((hour * 60 + minute - offset_minutes) * 60 + second) * 1000 +
       millis;
  return true;
}

}  // namespace

absl::StatusOr<int64_t> ParseTimeArg(std::string_view flag, std::string_view text) {
  int64_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec == std::errc() && r.ptr == text.data() + text.size()) return v;
  if (ParseIso(text, v)) return v;
  return absl::InvalidArgumentError(absl::StrCat(
      "--", std::string(flag), " needs an integer timestamp (the file's unit, ms by default) or an ISO-8601 date/time such as "
      "2023-11-14T22:13:20Z, got \"", std::string(text), "\""));
}

absl::StatusOr<int64_t> ParseDurationArg(std::string_view flag, std::string_view text) {
  int64_t count = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), count);
  const std::string_view unit = r.ec == std::errc() ? text.substr(static_cast<size_t>(r.ptr - text.data())) : "";
  int64_t scale = 0;
  if (unit.empty()) scale = 1;
  if (unit == "ms") scale = 1;
  if (unit == "s") scale = 1000;
  if (unit == "m") scale = 60 * 1000;
  if (unit == "h") scale = 3600 * 1000;
  if (unit == "d") scale = kMsPerDay;
  int64_t width = 0;
  if (r.ec != std::errc() || scale == 0 || count <= 0 || __builtin_mul_overflow(count, scale, &width)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", std::string(flag), " needs a positive duration: an integer in the file's time unit, or with ms, s, m, h "
        "or d (counted in milliseconds), such as 10m, or calendar weeks or months (1w, 3mo); got \"", std::string(text),
        "\""));
  }
  return width;
}

std::string FormatIsoMillis(int64_t ms) {
  // Floor division: times before 1970 count back from the day's start.
  int64_t days = ms / kMsPerDay;
  int64_t rest = ms % kMsPerDay;
  if (rest < 0) {
    rest += kMsPerDay;
    --days;
  }
  int64_t y, m, d;
  CivilFromDays(days, y, m, d);
  return absl::StrFormat("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", y, m, d, rest / 3600000, rest / 60000 % 60,
                         rest / 1000 % 60, rest % 1000);
}

}  // namespace tsread::cli
