// How the extension's functions map TsFile times to DuckDB and back: the output type of `time`
// and TIMESTAMP fields (`time_unit`, `time_as`) and the time bounds a query passes
// (`start_time`, `end_time`, `end_time_exclusive`), each spelling of one instant giving the same
// bound in every session time zone.
#ifndef TSREAD_DUCKDB_TIME_PARAMETERS_H_
#define TSREAD_DUCKDB_TIME_PARAMETERS_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "tsread/duckdb/duckdb_api.h"
#include "tsread/read/aligned_device_reader.h"  // TimeRange

namespace tsread::duckdb_ext {

// What a stored INT64 time counts (`time_unit := 'ms' | 'us' | 'ns'`; IoTDB's default is ms).
enum class TimeUnit { kMs, kUs, kNs };

// How stored times come out. TsFile times are instants (UTC), so by default they are DuckDB's
// instant type, TIMESTAMPTZ (micros), which compares correctly with any TIMESTAMPTZ, any
// `to_timestamp(...)` and any string with an offset whatever the session's TimeZone; `ns` gives
// TIMESTAMP_NS (DuckDB has no nanosecond instant type: its values are UTC clock readings).
// `time_as := 'bigint'` gives the stored numbers unchanged, for times no timestamp type holds.
struct TimeMapping {
  TimeUnit unit = TimeUnit::kMs;
  bool raw = false;  // time_as := 'bigint'
};

// The time unit named by `text` ("ms", "us", "ns"); InvalidArgument naming `function` otherwise.
absl::StatusOr<TimeUnit> ParseTimeUnit(std::string_view text, const char* function);

// `time_unit` and `time_as` of a bind ('ms' and 'timestamp' when absent).
absl::StatusOr<TimeMapping> NamedTimeMapping(duckdb_bind_info info, const char* function);

// `start_time` / `end_time` (inclusive; `end_time_exclusive := true` makes the end exclusive) as a
// range of stored times. Each takes an instant: TIMESTAMPTZ (e.g. `to_timestamp(1700000600)`),
// a string with an offset ('2023-11-15 06:20:00+08', '...Z'), or a number in the file's unit
// (BIGINT); a TIMESTAMP, a DATE or a string without an offset is UTC clock time (TsFile's clock).
// A start rounds up and an end down to the file's unit, so the range holds exactly the stored
// times inside the given instants. InvalidArgument naming the parameter and what it takes.
absl::StatusOr<TimeRange> NamedTimeRange(duckdb_bind_info info, const TimeMapping& mapping, const char* function);

// The instant named parameter `name` gives (as start_time takes one), in stored units rounded down;
// nullopt when absent or NULL. InvalidArgument naming the parameter otherwise.
absl::StatusOr<std::optional<int64_t>> NamedTimePoint(duckdb_bind_info info, const TimeMapping& mapping,
                                                      const char* name, const char* function);

// What `bucket` asks for: a fixed width in stored units (0 when absent or NULL), or calendar months
// or days.
struct BucketParameter {
  int64_t width = 0;
  int64_t months = 0;  // an INTERVAL of whole months
  int64_t days = 0;    // an INTERVAL of whole days (calendar days where a time zone is given)
};

// `bucket`: an INTERVAL of days, hours, minutes, seconds and fractions (a whole number of the
// file's unit), an INTERVAL of whole months, or a positive integer in the file's unit.
// InvalidArgument naming `function` otherwise (an INTERVAL mixing months with days or time).
absl::StatusOr<BucketParameter> NamedBucket(duckdb_bind_info info, const TimeMapping& mapping, const char* function);

// The stored units a second holds in `mapping`'s unit (1000 for ms).
int64_t UnitsPerSecond(const TimeMapping& mapping);

// Registers time_unit and time_as (every function), or start_time, end_time and
// end_time_exclusive (functions that scan rows) on `function`.
void AddTimeMappingParameters(duckdb_table_function function);
void AddTimeRangeParameters(duckdb_table_function function);

// A stored time as the output value (micros for TIMESTAMPTZ; unchanged for ns or raw); nullopt
// when it overflows.
std::optional<int64_t> ToOutputTime(int64_t t, const TimeMapping& mapping);
// The output type: TIMESTAMP_TZ, TIMESTAMP_NS (ns) or BIGINT (raw).
duckdb_type TimestampType(const TimeMapping& mapping);
// The advice an out-of-range time error ends with.
inline constexpr const char* kTimeRangeAdvice = "(try time_unit, or time_as := 'bigint')";

// The instant an ISO-8601 text names, as nanoseconds since the epoch: 'YYYY-MM-DD', then
// optionally ' ' or 'T' and 'HH:MM[:SS[.fraction]]', then optionally 'Z', 'UTC' or an offset
// '±HH[:MM]' / '±HHMM' (none: UTC). nullopt when it is not such a text or names no real date.
std::optional<__int128> ParseInstantNanos(std::string_view text);

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_TIME_PARAMETERS_H_
