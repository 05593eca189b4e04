// When statistics answer exactly (exact_statistics.h).
#include "tsread/aggregate/exact_statistics.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "tsread/aggregate/column_aggregate.h"

namespace tsread {
namespace {

bool IsAscii(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

}  // namespace

bool ValuesStatisticsAreExact(DataType type, DataType series_type, const Statistics& values, const Statistics& time) {
  if (series_type != type) return false;
  if (values.count == 0) return true;
  if (type == DataType::kBlob) return false;
  if (values.count > time.count || values.start_time < time.start_time || values.end_time > time.end_time) return false;
  // A FLOAT/DOUBLE min or max is NaN only when the first value is (NaN never replaces one, nor is
  // replaced): merged with others' statistics it would hide their values, where aggregating the
  // rows in order keeps comparing after a NaN that is not the group's first.
  if (IsFloatType(type) &&
      (std::isnan(values.float_min) || std::isnan(values.float_max))) {
    return false;
  }
  if (type == DataType::kString && !(IsAscii(values.bin_min) && IsAscii(values.bin_max))) return false;
  return ColumnAggregate(type).StatisticsAreExact(values);
}

}  // namespace tsread
