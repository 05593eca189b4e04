// ColumnVector: the values of one column for a run of rows, in Arrow's memory layout so that a
// consumer (or the Arrow export) can take the buffers as they are:
//  - validity: an LSB-first bitmap, bit r set = row r has a value; null_count counts the clear
//    bits among the first size() rows;
//  - fixed-width types: a dense array with a slot per row (null slots hold zero);
//  - TEXT/STRING/BLOB: offsets (size() + 1 of them, starting at 0; a null row is empty) into
//    `bytes`, which the vector owns — a batch stays valid after the pages it came from are gone.
// Exactly one value array is used, chosen by the column's physical type. BOOLEAN values are one
// 0/1 byte per row.
#ifndef TSREAD_READ_COLUMN_VECTOR_H_
#define TSREAD_READ_COLUMN_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "tsread/common/tsfile_enums.h"

namespace tsread {

struct ColumnVector {
  DataType type = DataType::kInt64;
  size_t length = 0;
  size_t null_count = 0;
  std::vector<uint8_t> validity;  // (length + 7) / 8 bytes; bits past `length` are zero
  std::vector<uint8_t> bools;
  std::vector<int32_t> int32s;  // INT32, DATE
  std::vector<int64_t> int64s;  // INT64, TIMESTAMP
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<int32_t> offsets;  // TEXT, STRING, BLOB
  std::vector<char> bytes;

  size_t size() const { return length; }
  bool IsValid(size_t row) const { return (validity[row >> 3] >> (row & 7)) & 1; }
  // Row `row` of a TEXT/STRING/BLOB column (empty for a null row); valid while the vector is
  // not modified.
  std::string_view binary(size_t row) const {
    return std::string_view(bytes.data() + offsets[row], static_cast<size_t>(offsets[row + 1] - offsets[row]));
  }

  // Sizes the bitmap and the value array of this column's physical type for `rows` rows (binary
  // columns: rows + 1 offsets). Contents are unspecified until filled; finish with one of
  // SetAllValid, SetAllNull or FinishValidity.
  void Resize(size_t rows);
  // Zero rows (a binary column keeps its single offset 0).
  void Clear() {
    Resize(0);
    SetAllNull();
  }
  // Marks every row valid.
  void SetAllValid();
  // Marks every row null and zeroes every slot (binary columns: every row empty).
  void SetAllNull();
  // Clears the bitmap's bits past `length` and recounts null_count from it.
  void FinishValidity();
  // Keeps only the rows whose `keep` byte is set (keep.size() == size()), in order.
  void KeepRows(const std::vector<uint8_t>& keep);
  // Keeps rows [begin, end) (begin <= end <= size()), moved to the front: a contiguous run, such
  // as the rows of a page inside a time range, without a per-row selection.
  void KeepRange(size_t begin, size_t end);
  // Removes the rows of `ranges` ([begin, end) pairs, ascending and disjoint, within size()),
  // moving the rows between them down in blocks: a few deleted stretches without a per-row pass.
  void RemoveRanges(std::span<const std::pair<size_t, size_t>> ranges);
  // Replaces this vector's contents with rows [begin, begin + count) of `from` (same type).
  void AssignRows(const ColumnVector& from, size_t begin, size_t count);
};

// Calls fn with the ColumnVector member that holds values of `type` and returns true; returns
// false for binary columns, whose offsets and bytes every caller handles itself.
template <typename Fn>
bool VisitFixedWidthValues(DataType type, Fn&& fn) {
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean: fn(&ColumnVector::bools); return true;
    case PhysicalType::kInt32: fn(&ColumnVector::int32s); return true;
    case PhysicalType::kInt64: fn(&ColumnVector::int64s); return true;
    case PhysicalType::kFloat: fn(&ColumnVector::floats); return true;
    case PhysicalType::kDouble: fn(&ColumnVector::doubles); return true;
    case PhysicalType::kBinary: return false;
  }
  return false;
}

// Keeps the entries of `values` whose `keep` byte is set, in order.
template <typename T>
void KeepEntries(std::vector<T>& values, const std::vector<uint8_t>& keep) {
  size_t out = 0;
  for (size_t r = 0; r < keep.size(); ++r) {
    if (keep[r]) values[out++] = values[r];
  }
  values.resize(out);
}

// Removes the entries of `ranges` ([begin, end) pairs, ascending and disjoint) from `values`,
// moving the entries between them down in blocks.
template <typename T>
void RemoveEntryRanges(std::vector<T>& values, std::span<const std::pair<size_t, size_t>> ranges) {
  size_t kept = 0, from = 0;
  auto keep_block = [&](size_t begin, size_t end) {
    if (kept != begin && begin < end) std::memmove(values.data() + kept, values.data() + begin, (end - begin) * sizeof(T));
    kept += end - begin;
  };
  for (const auto& [begin, end] : ranges) {
    keep_block(from, begin);
    from = end;
  }
  keep_block(from, values.size());
  values.resize(kept);
}

}  // namespace tsread

#endif  // TSREAD_READ_COLUMN_VECTOR_H_
