// Observed: what the decoded values of a page, chunk or series add up to, for `tsread verify`
// (file_verifier.h) to compare with the Statistics the file stores (format reference §4): the
// count and time range of the non-null values, and the min/max of an integer or floating type.
#ifndef TSREAD_CHECK_OBSERVED_VALUES_H_
#define TSREAD_CHECK_OBSERVED_VALUES_H_

#include <cstddef>
#include <cstdint>

#include "tsread/read/column_vector.h"

namespace tsread {
namespace check_internal {

struct Observed {
  uint64_t count = 0;
  int64_t start_time = 0, end_time = 0;
  bool has_int = false, has_float = false;
  int64_t int_min = 0, int_max = 0;
  double float_min = 0, float_max = 0;

  void AddTime(int64_t t);
  void AddInt(int64_t v);
  // Java's FloatStatistics/DoubleStatistics: the first value starts min and max (even NaN), later
  // values replace them only when a comparison says so — which NaN never does.
  void AddFloat(double v);
  // Row `r` of `values` into the min/max of its type (INT32, DATE, INT64, TIMESTAMP, FLOAT,
  // DOUBLE; other types have none).
  void AddValue(const ColumnVector& values, size_t r);
  void Merge(const Observed& o);
};

}  // namespace check_internal
}  // namespace tsread

#endif  // TSREAD_CHECK_OBSERVED_VALUES_H_
