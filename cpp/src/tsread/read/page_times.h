// The check every decoded time page passes before its rows are used: its times strictly increase,
// continue after the chunk's previous page and lie inside the statistics that describe them.
#ifndef TSREAD_READ_PAGE_TIMES_H_
#define TSREAD_READ_PAGE_TIMES_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "tsread/format/chunk_header.h"
#include "tsread/format/statistics.h"
#include "tsread/read/aligned_device_reader.h"  // TimeRange
#include "tsread/read/chunk_data.h"
#include "tsread/read/column_vector.h"

namespace tsread {

// OK when `times` (the decoded times of `page`, a page of `chunk`) strictly increase, are all after
// `previous` (the last time of the chunk's previous decoded page, if any) and inside both the
// page's statistics (when it has them) and `chunk_statistics` (the chunk's, from its metadata).
// A Java writer refuses a time not after the last one of its chunk (checkIsHistoryData), and the
// statistics are computed from the times (format reference §4), so anything else is corruption:
// DataLoss naming the column, the chunk and the page. A scan skips pages and chunks by their
// statistics, so times the statistics do not cover would otherwise be answers that are silently
// wrong.
absl::Status CheckPageTimes(const ChunkHeader& chunk, const PageRef& page, std::span<const int64_t> times,
                            const Statistics& chunk_statistics, std::optional<int64_t> previous);

// Whether every time is after the one before it (vectorized where the CPU allows): rows in time
// order, each time once.
bool StrictlyIncreasing(std::span<const int64_t> times);

// Keeps the rows of a checked page (CheckPageTimes: its times strictly increase) whose time is in
// `range`: one run, cut from `times` and from each of `columns` (ColumnVector::KeepRange), with no
// per-row selection.
void KeepRowsInRange(const TimeRange& range, std::vector<int64_t>& times, std::span<ColumnVector> columns);

}  // namespace tsread

#endif  // TSREAD_READ_PAGE_TIMES_H_
