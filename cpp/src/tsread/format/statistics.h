// Statistics (format reference §4): count, time range and a type-specific part.
#ifndef TSREAD_FORMAT_STATISTICS_H_
#define TSREAD_FORMAT_STATISTICS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/io/byte_stream.h"

namespace tsread {

struct Statistics {
  DataType type = DataType::kVector;
  // Non-null values (rows, for the time column).
  uint32_t count = 0;
  int64_t start_time = 0;
  int64_t end_time = 0;

  // INT32, DATE, INT64, TIMESTAMP (widened to int64).
  int64_t int_min = 0, int_max = 0, int_first = 0, int_last = 0;
  // FLOAT (widened exactly) and DOUBLE.
  double float_min = 0, float_max = 0, float_first = 0, float_last = 0;
  // INT32/DATE/BOOLEAN store an i64 sum, INT64/TIMESTAMP/FLOAT/DOUBLE an f64 sum.
  int64_t int_sum = 0;
  double float_sum = 0;
  // BOOLEAN.
  bool bool_first = false, bool_last = false;
  // TEXT (first/last), STRING (first/last/min/max).
  std::string bin_first, bin_last, bin_min, bin_max;

  // Statistics with count 0 carry placeholder values (§4, §13 item 19).
  bool empty() const { return count == 0; }
};

// Reads statistics of a series of `type` (VECTOR = time column).
absl::StatusOr<Statistics> ReadStatistics(ByteStream& in, DataType type);
// ReadStatistics into `out`, whose strings keep their capacity (a reader that parses the metadata
// of many series into the same objects allocates nothing).
absl::Status ReadStatisticsInto(ByteStream& in, DataType type, Statistics& out);
// Skips statistics of `type` without keeping them.
absl::Status SkipStatistics(ByteStream& in, DataType type);

}  // namespace tsread

#endif  // TSREAD_FORMAT_STATISTICS_H_
