// ColumnValues: the values of one FIELD column for the rows handed to the writer: a dense slot per
// row, one typed array used, validity as a byte per row and binaries as views (simple to fill by
// hand). The write module does not depend on read, hence its own type.
#ifndef TSREAD_WRITE_COLUMN_VALUES_H_
#define TSREAD_WRITE_COLUMN_VALUES_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tsread/common/tsfile_enums.h"

namespace tsread {

struct ColumnValues {
  DataType type = DataType::kInt64;
  // One byte per row, 1 = value present; empty means every row is present.
  std::vector<uint8_t> valid;
  std::vector<uint8_t> bools;
  std::vector<int32_t> int32s;  // INT32, DATE
  std::vector<int64_t> int64s;  // INT64, TIMESTAMP
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<std::string_view> binaries;  // TEXT, STRING, BLOB; the bytes must outlive WriteRows

  bool is_valid(size_t row) const { return valid.empty() || valid[row] != 0; }
  // Rows in the typed array of this column's physical type.
  size_t value_slots() const;
};

}  // namespace tsread

#endif  // TSREAD_WRITE_COLUMN_VALUES_H_
