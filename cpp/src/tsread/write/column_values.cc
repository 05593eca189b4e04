#include "tsread/write/column_values.h"

namespace tsread {

size_t ColumnValues::value_slots() const {
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean:
      return bools.size();
    case PhysicalType::kInt32:
      return int32s.size();
    case PhysicalType::kInt64:
      return int64s.size();
    case PhysicalType::kFloat:
      return floats.size();
    case PhysicalType::kDouble:
      return doubles.size();
    case PhysicalType::kBinary:
      return binaries.size();
  }
  return 0;
}

}  // namespace tsread
