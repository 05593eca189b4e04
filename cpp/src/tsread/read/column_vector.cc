#include "tsread/read/column_vector.h"

#include <algorithm>

namespace tsread {

void ColumnVector::Resize(size_t rows) {
  valid.resize(rows);
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean: bools.resize(rows); break;
    case PhysicalType::kInt32: int32s.resize(rows); break;
    case PhysicalType::kInt64: int64s.resize(rows); break;
    case PhysicalType::kFloat: floats.resize(rows); break;
    case PhysicalType::kDouble: doubles.resize(rows); break;
    case PhysicalType::kBinary: binaries.resize(rows); break;
  }
}

void ColumnVector::SetNull(size_t begin, size_t end) {
  std::fill(valid.begin() + static_cast<std::ptrdiff_t>(begin), valid.begin() + static_cast<std::ptrdiff_t>(end), 0);
}

void ColumnVector::KeepRows(const std::vector<uint8_t>& keep) {
  if (valid.empty()) return;
  KeepEntries(valid, keep);
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean: KeepEntries(bools, keep); break;
    case PhysicalType::kInt32: KeepEntries(int32s, keep); break;
    case PhysicalType::kInt64: KeepEntries(int64s, keep); break;
    case PhysicalType::kFloat: KeepEntries(floats, keep); break;
    case PhysicalType::kDouble: KeepEntries(doubles, keep); break;
    case PhysicalType::kBinary: KeepEntries(binaries, keep); break;
  }
}

namespace {

template <typename T>
void AssignRange(std::vector<T>& to, const std::vector<T>& from, size_t begin, size_t count) {
  to.assign(from.begin() + static_cast<std::ptrdiff_t>(begin),
            from.begin() + static_cast<std::ptrdiff_t>(begin + count));
}

}  // namespace

void ColumnVector::AssignRows(const ColumnVector& from, size_t begin, size_t count) {
  type = from.type;
  if (from.valid.empty()) {  // a TAG/ATTRIBUTE placeholder: nothing stored
    Resize(0);
    return;
  }
  AssignRange(valid, from.valid, begin, count);
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean: AssignRange(bools, from.bools, begin, count); break;
    case PhysicalType::kInt32: AssignRange(int32s, from.int32s, begin, count); break;
    case PhysicalType::kInt64: AssignRange(int64s, from.int64s, begin, count); break;
    case PhysicalType::kFloat: AssignRange(floats, from.floats, begin, count); break;
    case PhysicalType::kDouble: AssignRange(doubles, from.doubles, begin, count); break;
    case PhysicalType::kBinary: AssignRange(binaries, from.binaries, begin, count); break;
  }
}

}  // namespace tsread
