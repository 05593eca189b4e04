// Observed (observed_values.h): the accumulator `tsread verify` compares with Statistics (format
// reference §4).
#include "tsread/check/observed_values.h"

#include <algorithm>

namespace tsread {
namespace check_internal {

void Observed::AddTime(int64_t t) {
  if (count == 0 || t < start_time) start_time = t;
  if (count == 0 || t > end_time) end_time = t;
  ++count;
}

void Observed::AddInt(int64_t v) {
  int_min = has_int ? std::min(int_min, v) : v;
  int_max = has_int ? std::max(int_max, v) : v;
  has_int = true;
}

void Observed::AddFloat(double v) {
  if (!has_float) {
    float_min = float_max = v;
    has_float = true;
    return;
  }
  if (v < float_min) float_min = v;
  if (v > float_max) float_max = v;
}

void Observed::AddValue(const ColumnVector& values, size_t r) {
  switch (values.type) {
    case DataType::kInt32:
    case DataType::kDate: AddInt(values.int32s[r]); break;
    case DataType::kInt64:
    case DataType::kTimestamp: AddInt(values.int64s[r]); break;
    case DataType::kFloat: AddFloat(values.floats[r]); break;
    case DataType::kDouble: AddFloat(values.doubles[r]); break;
    default: break;
  }
}

void Observed::Merge(const Observed& o) {
  if (o.count == 0) return;
  if (count == 0 || o.start_time < start_time) start_time = o.start_time;
  if (count == 0 || o.end_time > end_time) end_time = o.end_time;
  count += o.count;
  if (o.has_int) {
    AddInt(o.int_min);
    AddInt(o.int_max);
  }
  if (o.has_float) {
    AddFloat(o.float_min);
    AddFloat(o.float_max);
  }
}

}  // namespace check_internal
}  // namespace tsread
