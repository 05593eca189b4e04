// Timestamps on the command line and in output: --start/--end take an integer (in the file's time
// unit, ms by default) or an ISO-8601 date/time, which is converted to epoch milliseconds; `cat
// --time-format iso` prints epoch milliseconds back as ISO-8601 UTC.
#ifndef TSREAD_TOOLS_TIME_PARSE_H_
#define TSREAD_TOOLS_TIME_PARSE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread::cli {

// "1700000000000", "-5", "2023-11-14", "2023-11-14T22:13:20", "2023-11-14T22:13:20.123Z",
// "2023-11-14 22:13:20+02:00" (a space may replace the T; no zone means UTC; up to 9 fraction
// digits, truncated to ms). InvalidArgument naming `flag` otherwise.
absl::StatusOr<int64_t> ParseTimeArg(std::string_view flag, std::string_view text);

// A positive duration: an integer in the file's time unit ("600000"), or a number with a unit
// counted in milliseconds, as ISO times are: "500ms", "30s", "10m", "1h", "7d". InvalidArgument
// naming `flag` otherwise (zero, negative, or too large for int64).
absl::StatusOr<int64_t> ParseDurationArg(std::string_view flag, std::string_view text);

// Epoch milliseconds as "YYYY-MM-DDTHH:MM:SS.mmmZ" (proleptic Gregorian, UTC).
std::string FormatIsoMillis(int64_t ms);

}  // namespace tsread::cli

#endif  // TSREAD_TOOLS_TIME_PARSE_H_
