// UTC offsets as ISO 8601 writes them after a time ("+05:30", "-0800", "+05"): one reading for the
// CLI's and SQL's time bounds and for the time zones of calendar buckets.
#ifndef TSREAD_COMMON_UTC_OFFSET_H_
#define TSREAD_COMMON_UTC_OFFSET_H_

#include <optional>
#include <string_view>

namespace tsread {

// `text`, all of it, as "±HH", "±HH:MM" or "±HHMM": seconds east of UTC. nullopt for anything
// else, minutes above 59 or hours above `max_hours` (ISO 8601 time bounds allow 23; fixed time
// zones span -18:00..+18:00, as java.time.ZoneOffset's).
std::optional<int> ParseUtcOffset(std::string_view text, int max_hours);

}  // namespace tsread

#endif  // TSREAD_COMMON_UTC_OFFSET_H_
