// ColumnVector: the values of one column for a run of rows — a dense slot per row plus a validity
// byte per row (1 = value present). Exactly one of the typed arrays is used, chosen by the
// column's physical type. Binary values are views into page buffers owned by whoever filled the
// vector (valid until it is refilled).
#ifndef TSREAD_READ_COLUMN_VECTOR_H_
#define TSREAD_READ_COLUMN_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tsread/common/tsfile_enums.h"

namespace tsread {

struct ColumnVector {
  DataType type = DataType::kInt64;
  std::vector<uint8_t> valid;
  std::vector<uint8_t> bools;
  std::vector<int32_t> int32s;  // INT32, DATE
  std::vector<int64_t> int64s;  // INT64, TIMESTAMP
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<std::string_view> binaries;  // TEXT, STRING, BLOB

  size_t size() const { return valid.size(); }
  // Resizes every array of this column's physical type to `rows` (values unspecified).
  void Resize(size_t rows);
  // Marks rows [begin, end) null.
  void SetNull(size_t begin, size_t end);
  // Keeps only the rows whose `keep` byte is set (keep.size() == size()), in order.
  void KeepRows(const std::vector<uint8_t>& keep);
  // Replaces this vector's contents with rows [begin, begin + count) of `from` (same type).
  void AssignRows(const ColumnVector& from, size_t begin, size_t count);
};

// Keeps the entries of `values` whose `keep` byte is set, in order.
template <typename T>
void KeepEntries(std::vector<T>& values, const std::vector<uint8_t>& keep) {
  size_t out = 0;
  for (size_t r = 0; r < keep.size(); ++r) {
    if (keep[r]) values[out++] = values[r];
  }
  values.resize(out);
}

}  // namespace tsread

#endif  // TSREAD_READ_COLUMN_VECTOR_H_
