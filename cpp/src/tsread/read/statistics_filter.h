// StatisticsFilter: lets a scan's caller take rows from their statistics instead of having them
// decoded — an aggregation answers a whole device, chunk group or page from what the writer
// recorded (format reference §4) and only the rest is decoded. The aligned device reader asks
// the filter about every device, then every chunk group, then every page whose rows overlap the
// scan's time range, coarsest first, before it loads or decodes them; what the filter takes is
// neither loaded nor decoded, and the batches carry only the other rows. A page it does not take
// whole it may still take from some row on (TailStart, TakeTail): its statistics less the rows
// before, which alone are decoded — a range or a bucket boundary that cuts a page's first rows
// off then costs their decoding, not the page's.
#ifndef TSREAD_READ_STATISTICS_FILTER_H_
#define TSREAD_READ_STATISTICS_FILTER_H_

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "tsread/format/chunk_header.h"
#include "tsread/format/device_id.h"
#include "tsread/format/statistics.h"
#include "tsread/format/timeseries_metadata.h"
#include "tsread/read/column_vector.h"

namespace tsread {

enum class StatisticsLevel { kDevice, kChunkGroup, kPage };

// The statistics of some rows of one device: a whole device (its series statistics), one chunk
// group (its ChunkMetadata statistics) or one page (its page header's, or its chunk's for the only
// page of a chunk). Every vector has one entry per column of the scan, in the scan's order.
struct RowStatistics {
  StatisticsLevel level = StatisticsLevel::kDevice;
  const DeviceId* device = nullptr;
  // The time column's: how many rows and their time range.
  const Statistics* time = nullptr;
  // The time column's series (kDevice: its chunks).
  const TimeseriesMetadata* time_series = nullptr;
  // false: some statistics are missing where the format puts them (a page of a multi-page chunk
  // without its own, §3). The rows are decoded whatever Take answers; it is told so it can count.
  bool complete = true;
  // Each column's statistics over these rows; nullptr when it has no values in them (a column the
  // device lacks, an all-null chunk or page, a TAG or ATTRIBUTE column).
  std::vector<const Statistics*> values;
  // Each column's series (its declared type and, for kDevice, every chunk); nullptr as above.
  std::vector<const TimeseriesMetadata*> series;
  // kChunkGroup: each column's chunk in this group (where its header is); nullptr as above.
  std::vector<const ChunkMetadata*> chunks;
  // kPage: each column's loaded chunk header (its encoding); nullptr as above.
  std::vector<const ChunkHeader*> headers;
};

class StatisticsFilter {
 public:
  virtual ~StatisticsFilter() = default;
  // true: the filter has taken these rows from their statistics; they are not decoded. Called on
  // the thread that decodes them (several at once in a multi-threaded scan). An error ends the scan.
  virtual absl::StatusOr<bool> Take(const RowStatistics& rows) = 0;

  // After Take declined page `rows` (kPage, complete), with the page's times decoded: the row
  // from which on the filter would take the page's rows from its statistics, given the rows
  // before it decoded; nullopt (the default) to have the page decoded whole.
  virtual absl::StatusOr<std::optional<size_t>> TailStart(const RowStatistics& rows, std::span<const int64_t> times) {
    (void)rows;
    (void)times;
    return std::nullopt;
  }
  // Then, with `head` holding each column's rows [0, tail] decoded (the tail's first row too, one
  // ColumnVector per column of the scan): true when the filter has taken rows [tail, n) — from
  // the statistics, less the head's rows, of the columns where they give the answer, and from
  // the rows of any other column j, decoded whole into head[j] by `decode_whole(j)`. The batch
  // then carries rows [0, tail) (those in the scan's range). false: the page is decoded whole
  // and the filter sees all its rows.
  virtual absl::StatusOr<bool> TakeTail(const RowStatistics& rows, std::span<const int64_t> times, size_t tail,
                                        std::vector<ColumnVector>& head,
                                        absl::FunctionRef<absl::Status(size_t)> decode_whole) {
    (void)rows;
    (void)times;
    (void)tail;
    (void)head;
    (void)decode_whole;
    return false;
  }
};

}  // namespace tsread

#endif  // TSREAD_READ_STATISTICS_FILTER_H_
