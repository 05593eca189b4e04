#include "tsread/duckdb/time_parameters.h"

#include <cctype>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "tsread/common/calendar.h"
#include "tsread/common/utc_offset.h"
#include "tsread/duckdb/function_support.h"

namespace tsread::duckdb_ext {
namespace {

using Nanos = __int128;
constexpr int64_t kNanosPerMicro = 1000;
constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kNanosPerDay = 86'400 * kNanosPerSecond;

int64_t NanosPerUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMs: return 1'000'000;
    case TimeUnit::kUs: return 1000;
    case TimeUnit::kNs: return 1;
  }
  return 1'000'000;
}

Nanos FloorDiv(Nanos a, Nanos b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
Nanos CeilDiv(Nanos a, Nanos b) { return -FloorDiv(-a, b); }

int64_t Clamp(Nanos v) {
  if (v > std::numeric_limits<int64_t>::max()) return std::numeric_limits<int64_t>::max();
  if (v < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

// Reads exactly `digits` decimal digits at text[at...]; false if they are not all digits.
bool Digits(std::string_view text, size_t& at, size_t digits, int64_t& out) {
  if (at + digits > text.size()) return false;
  out = 0;
  for (size_t i = 0; i < digits; ++i) {
    const char c = text[at + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  at += digits;
  return true;
}

bool Take(std::string_view text, size_t& at, char c) {
  if (at < text.size() && text[at] == c) {
    ++at;
    return true;
  }
  return false;
}

// The offset east of UTC that ends an ISO text ("Z", "UTC", "+08", "+08:00", "-0530"), in seconds.
std::optional<int64_t> ParseOffset(std::string_view text, size_t at) {
  if (at == text.size()) return 0;
  std::string_view rest = text.substr(at);
  if (rest == "Z" || rest == "z" || rest == "UTC" || rest == " UTC") return 0;
  if (rest[0] == ' ') rest.remove_prefix(1);
  const std::optional<int> offset = ParseUtcOffset(rest, 23);
  if (!offset) return std::nullopt;
  return *offset;
}

bool IsIntegerType(duckdb_type id) {
  switch (id) {
    case DUCKDB_TYPE_TINYINT:
    case DUCKDB_TYPE_SMALLINT:
    case DUCKDB_TYPE_INTEGER:
    case DUCKDB_TYPE_BIGINT:
    case DUCKDB_TYPE_UTINYINT:
    case DUCKDB_TYPE_USMALLINT:
    case DUCKDB_TYPE_UINTEGER: return true;
    default: return false;
  }
}

// One bound: either a stored time already (a number in the file's unit) or an instant.
struct Bound {
  std::optional<int64_t> stored;
  Nanos instant = 0;
};

absl::StatusOr<Bound> BoundOf(duckdb_value v, const char* name, const char* function) {
  duckdb_logical_type type = duckdb_get_value_type(v);  // owned by the value
  const duckdb_type id = duckdb_get_type_id(type);
  Bound b;
  if (IsIntegerType(id) || id == DUCKDB_TYPE_INTEGER_LITERAL) {
    b.stored = duckdb_get_int64(v);
    return b;
  }
  switch (id) {
    case DUCKDB_TYPE_UBIGINT: {
      const uint64_t u = duckdb_get_uint64(v);
      b.stored = u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max()
                                                                                : static_cast<int64_t>(u);
      return b;
    }
    case DUCKDB_TYPE_TIMESTAMP_TZ: b.instant = Nanos{duckdb_get_timestamp_tz(v).micros} * kNanosPerMicro; return b;
    case DUCKDB_TYPE_TIMESTAMP: b.instant = Nanos{duckdb_get_timestamp(v).micros} * kNanosPerMicro; return b;
    case DUCKDB_TYPE_TIMESTAMP_S: b.instant = Nanos{duckdb_get_timestamp_s(v).seconds} * kNanosPerSecond; return b;
    case DUCKDB_TYPE_TIMESTAMP_MS: b.instant = Nanos{duckdb_get_timestamp_ms(v).millis} * 1'000'000; return b;
    case DUCKDB_TYPE_TIMESTAMP_NS: b.instant = Nanos{duckdb_get_timestamp_ns(v).nanos}; return b;
    case DUCKDB_TYPE_DATE: b.instant = Nanos{duckdb_get_date(v).days} * kNanosPerDay; return b;
    case DUCKDB_TYPE_VARCHAR:
    case DUCKDB_TYPE_STRING_LITERAL: {
      const std::string text = ValueToString(v);
      std::optional<Nanos> instant = ParseInstantNanos(text);
      if (!instant) {
        return absl::InvalidArgumentError(absl::StrCat(
            function, ": ", name, " '", text, "' is not an ISO time: write '2023-11-15 06:20:00+08' (an offset, or ",
            "none for UTC), a TIMESTAMPTZ, or a BIGINT in the file's unit"));
      }
      b.instant = *instant;
      return b;
    }
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          function, ": ", name, " takes a TIMESTAMPTZ, a TIMESTAMP (UTC), an ISO string ('2023-11-15 06:20:00+08') ",
          "or a BIGINT in the file's unit (time_unit)"));
  }
}

}  // namespace

absl::StatusOr<TimeUnit> ParseTimeUnit(std::string_view text, const char* function) {
  if (text == "ms") return TimeUnit::kMs;
  if (text == "us") return TimeUnit::kUs;
  if (text == "ns") return TimeUnit::kNs;
  return absl::InvalidArgumentError(
      absl::StrCat(function, ": time_unit must be 'ms', 'us' or 'ns', not '", std::string(text), "'"));
}

absl::StatusOr<TimeMapping> NamedTimeMapping(duckdb_bind_info info, const char* function) {
  TimeMapping mapping;
  if (std::optional<std::string> unit = NamedString(info, "time_unit")) {
    absl::StatusOr<TimeUnit> parsed = ParseTimeUnit(*unit, function);
    if (!parsed.ok()) return parsed.status();
    mapping.unit = *parsed;
  }
  if (std::optional<std::string> as = NamedString(info, "time_as")) {
    if (*as == "bigint") {
      mapping.raw = true;
    } else if (*as != "timestamp") {
      return absl::InvalidArgumentError(
          absl::StrCat(function, ": time_as must be 'timestamp' or 'bigint', not '", *as, "'"));
    }
  }
  return mapping;
}

absl::StatusOr<TimeRange> NamedTimeRange(duckdb_bind_info info, const TimeMapping& mapping, const char* function) {
  TimeRange range;
  const bool end_exclusive = NamedBool(info, "end_time_exclusive");
  const Nanos unit = NanosPerUnit(mapping.unit);
  std::optional<Nanos> start_instant;  // as given, to compare with the end's
  for (const bool is_start : {true, false}) {
    const char* name = is_start ? "start_time" : "end_time";
    duckdb_value v = duckdb_bind_get_named_parameter(info, name);
    if (!v) continue;
    absl::StatusOr<Bound> bound = Bound{};
    const bool given = !duckdb_is_null_value(v);
    if (given) bound = BoundOf(v, name, function);
    duckdb_destroy_value(&v);
    if (!bound.ok()) return bound.status();
    if (!given) continue;
    // A start after the end is a mistake in every front end (the CLI's rule), not an empty result.
    const Nanos instant = bound->stored ? Nanos{*bound->stored} * unit : bound->instant;
    if (is_start) start_instant = instant;
    if (!is_start && start_instant && *start_instant > instant) {
      return absl::InvalidArgumentError(absl::StrCat(function, ": start_time is after end_time"));
    }
    Nanos stored;  // the bound in stored units, inclusive
    if (bound->stored) {
      stored = Nanos{*bound->stored} - (!is_start && end_exclusive ? 1 : 0);
    } else if (is_start) {
      stored = CeilDiv(bound->instant, unit);
    } else {
      stored = end_exclusive ? CeilDiv(bound->instant, unit) - 1 : FloorDiv(bound->instant, unit);
    }
    if (is_start) {
      range.start = Clamp(stored);
    } else if (stored < std::numeric_limits<int64_t>::min()) {
      range = TimeRange{std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};  // empty
      return range;
    } else {
      range.end = Clamp(stored);
    }
  }
  return range;
}

absl::StatusOr<std::optional<int64_t>> NamedTimePoint(duckdb_bind_info info, const TimeMapping& mapping,
                                                      const char* name, const char* function) {
  duckdb_value v = duckdb_bind_get_named_parameter(info, name);
  if (!v) return std::optional<int64_t>();
  if (duckdb_is_null_value(v)) {
    duckdb_destroy_value(&v);
    return std::optional<int64_t>();
  }
  absl::StatusOr<Bound> bound = BoundOf(v, name, function);
  duckdb_destroy_value(&v);
  if (!bound.ok()) return bound.status();
  if (bound->stored) return std::optional<int64_t>(*bound->stored);
  return std::optional<int64_t>(Clamp(FloorDiv(bound->instant, NanosPerUnit(mapping.unit))));
}

absl::StatusOr<BucketParameter> NamedBucket(duckdb_bind_info info, const TimeMapping& mapping, const char* function) {
  duckdb_value v = duckdb_bind_get_named_parameter(info, "bucket");
  if (!v) return BucketParameter{};
  const bool given = !duckdb_is_null_value(v);
  const duckdb_type id = given ? duckdb_get_type_id(duckdb_get_value_type(v)) : DUCKDB_TYPE_INVALID;
  BucketParameter out;
  Nanos stored = 0;
  bool ok = false;
  if (IsIntegerType(id) || id == DUCKDB_TYPE_INTEGER_LITERAL) {
    stored = duckdb_get_int64(v);
    ok = stored > 0;
  } else if (id == DUCKDB_TYPE_INTERVAL) {
    const duckdb_interval interval = duckdb_get_interval(v);
    if (interval.months != 0) {
      // Months have no fixed length: calendar months, never mixed with days or time.
      out.months = interval.months;
      ok = interval.months > 0 && interval.days == 0 && interval.micros == 0;
    } else {
      const Nanos nanos = (Nanos{interval.days} * 86'400'000'000 + interval.micros) * kNanosPerMicro;
      const Nanos unit = NanosPerUnit(mapping.unit);
      stored = nanos / unit;
      ok = nanos % unit == 0 && stored > 0;
      if (interval.micros == 0) out.days = interval.days;
    }
  }
  duckdb_destroy_value(&v);
  if (!given) return BucketParameter{};
  if (!ok || stored > std::numeric_limits<int64_t>::max()) {
    return absl::InvalidArgumentError(absl::StrCat(
        function, ": bucket takes a positive INTERVAL in whole units of the file's time unit (INTERVAL 10 MINUTE, ",
        "INTERVAL '1 hour'), of whole months (INTERVAL '1 month', calendar months), or a positive BIGINT in that unit"));
  }
  out.width = static_cast<int64_t>(stored);
  return out;
}

int64_t UnitsPerSecond(const TimeMapping& mapping) { return kNanosPerSecond / NanosPerUnit(mapping.unit); }

void AddTimeMappingParameters(duckdb_table_function function) {
  AddNamedParameter(function, "time_unit", DUCKDB_TYPE_VARCHAR);
  AddNamedParameter(function, "time_as", DUCKDB_TYPE_VARCHAR);
}

void AddTimeRangeParameters(duckdb_table_function function) {
  // ANY: a bound may be a number in the file's unit, which no cast makes a timestamp.
  AddNamedParameter(function, "start_time", DUCKDB_TYPE_ANY);
  AddNamedParameter(function, "end_time", DUCKDB_TYPE_ANY);
  AddNamedParameter(function, "end_time_exclusive", DUCKDB_TYPE_BOOLEAN);
}

std::optional<int64_t> ToOutputTime(int64_t t, const TimeMapping& mapping) {
  if (mapping.raw || mapping.unit == TimeUnit::kUs || mapping.unit == TimeUnit::kNs) return t;
  int64_t out;
  if (__builtin_mul_overflow(t, int64_t{1000}, &out)) return std::nullopt;
  return out;
}

duckdb_type TimestampType(const TimeMapping& mapping) {
  if (mapping.raw) return DUCKDB_TYPE_BIGINT;
  return mapping.unit == TimeUnit::kNs ? DUCKDB_TYPE_TIMESTAMP_NS : DUCKDB_TYPE_TIMESTAMP_TZ;
}

std::optional<__int128> ParseInstantNanos(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  size_t at = 0;
  int64_t year, month, day, hour = 0, minute = 0, second = 0;
  if (!Digits(text, at, 4, year) || !Take(text, at, '-') || !Digits(text, at, 2, month) || !Take(text, at, '-') ||
      !Digits(text, at, 2, day)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) return std::nullopt;
  Nanos fraction = 0;
  if (at < text.size() && (text[at] == ' ' || text[at] == 'T' || text[at] == 't') && at + 1 < text.size() &&
      std::isdigit(static_cast<unsigned char>(text[at + 1]))) {
    ++at;
    if (!Digits(text, at, 2, hour) || !Take(text, at, ':') || !Digits(text, at, 2, minute)) return std::nullopt;
    if (Take(text, at, ':')) {
      if (!Digits(text, at, 2, second)) return std::nullopt;
      if (Take(text, at, '.')) {
        size_t digits = 0;
        Nanos scale = kNanosPerSecond;
        for (; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); ++at, ++digits) {
          scale /= 10;
          fraction += Nanos{text[at] - '0'} * scale;  // digits past the ninth add nothing
        }
        if (digits == 0) return std::nullopt;
      }
    }
    if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
  }
  std::optional<int64_t> offset = ParseOffset(text, at);
  if (!offset) return std::nullopt;
  const Nanos seconds = Nanos{DaysFromCivil(year, month, day)} * 86'400 + hour * 3600 + minute * 60 + second - *offset;
  return seconds * kNanosPerSecond + fraction;
}

}  // namespace tsread::duckdb_ext
