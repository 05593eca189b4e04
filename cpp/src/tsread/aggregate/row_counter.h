// RowCounter: a statistics filter that counts rows — `count(*)` over a scan without decoding what
// the time column's statistics already count (format reference §4). A device, chunk group or page
// whose rows lie entirely inside the time range is counted from its statistics and not read; the
// scan decodes only the time column of the pages the range cuts, and the caller adds those rows
// (the batches') to Take's. One per scanning thread.
#ifndef TSREAD_AGGREGATE_ROW_COUNTER_H_
#define TSREAD_AGGREGATE_ROW_COUNTER_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "tsread/read/aligned_device_reader.h"
#include "tsread/read/statistics_filter.h"

namespace tsread {

class RowCounter : public StatisticsFilter {
 public:
  explicit RowCounter(TimeRange range = {}) : range_(range) {}

  absl::StatusOr<bool> Take(const RowStatistics& rows) override {
    if (!rows.complete || !range_.Covers(*rows.time)) return false;
    counted_ += rows.time->count;
    return true;
  }
  // The rows counted since the last call.
  uint64_t TakeCounted() {
    const uint64_t n = counted_;
    counted_ = 0;
    return n;
  }

 private:
  TimeRange range_;
  uint64_t counted_ = 0;
};

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_ROW_COUNTER_H_
