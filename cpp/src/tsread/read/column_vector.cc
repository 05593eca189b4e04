#include "tsread/read/column_vector.h"

#include <algorithm>
#include <cstring>

namespace tsread {
namespace {

size_t BitmapBytes(size_t rows) { return (rows + 7) / 8; }

// Set bits of a word without the POPCNT instruction (not in baseline x86-64; std::popcount
// would call libgcc's out-of-line version).
size_t PopCount(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<size_t>((x * 0x0101010101010101ull) >> 56);
}

size_t CountSetBits(const uint8_t* bits, size_t bytes) {
  size_t count = 0;
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t word;
    std::memcpy(&word, bits + i, 8);
    count += word == ~uint64_t{0} ? 64 : PopCount(word);
  }
  for (; i < bytes; ++i) count += PopCount(bits[i]);
  return count;
}

void SetBit(std::vector<uint8_t>& bits, size_t i, bool value) {
  const uint8_t mask = static_cast<uint8_t>(1u << (i & 7));
  bits[i >> 3] = value ? (bits[i >> 3] | mask) : (bits[i >> 3] & static_cast<uint8_t>(~mask));
}

template <typename T>
void AssignRange(std::vector<T>& to, const std::vector<T>& from, size_t begin, size_t count) {
  to.assign(from.begin() + static_cast<std::ptrdiff_t>(begin),
            from.begin() + static_cast<std::ptrdiff_t>(begin + count));
}

}  // namespace

void ColumnVector::Resize(size_t rows) {
  length = rows;
  validity.resize(BitmapBytes(rows));
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean: bools.resize(rows); break;
    case PhysicalType::kInt32: int32s.resize(rows); break;
    case PhysicalType::kInt64: int64s.resize(rows); break;
    case PhysicalType::kFloat: floats.resize(rows); break;
    case PhysicalType::kDouble: doubles.resize(rows); break;
    case PhysicalType::kBinary: offsets.resize(rows + 1); break;
  }
}

void ColumnVector::SetAllValid() {
  std::fill(validity.begin(), validity.end(), 0xFF);
  FinishValidity();
}

void ColumnVector::SetAllNull() {
  std::fill(validity.begin(), validity.end(), 0);
  null_count = length;
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean: std::fill(bools.begin(), bools.end(), 0); break;
    case PhysicalType::kInt32: std::fill(int32s.begin(), int32s.end(), 0); break;
    case PhysicalType::kInt64: std::fill(int64s.begin(), int64s.end(), 0); break;
    case PhysicalType::kFloat: std::fill(floats.begin(), floats.end(), 0.0f); break;
    case PhysicalType::kDouble: std::fill(doubles.begin(), doubles.end(), 0.0); break;
    case PhysicalType::kBinary:
      std::fill(offsets.begin(), offsets.end(), 0);
      bytes.clear();
      break;
  }
}

void ColumnVector::FinishValidity() {
  if (length % 8 != 0) validity[length / 8] &= static_cast<uint8_t>((1u << (length % 8)) - 1);
  null_count = length - CountSetBits(validity.data(), validity.size());
}

void ColumnVector::KeepRows(const std::vector<uint8_t>& keep) {
  if (length == 0) return;
  size_t kept = 0;
  int32_t byte_end = 0;
  const bool binary = PhysicalTypeOf(type) == PhysicalType::kBinary;
  for (size_t r = 0; r < keep.size(); ++r) {
    if (!keep[r]) continue;
    SetBit(validity, kept, IsValid(r));
    if (binary) {
      // Rows only move left, so the bytes can be moved down in place.
      const std::string_view value = this->binary(r);
      if (!value.empty()) std::memmove(bytes.data() + byte_end, value.data(), value.size());
      offsets[kept] = byte_end;
      byte_end += static_cast<int32_t>(value.size());
    }
    ++kept;
  }
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean: KeepEntries(bools, keep); break;
    case PhysicalType::kInt32: KeepEntries(int32s, keep); break;
    case PhysicalType::kInt64: KeepEntries(int64s, keep); break;
    case PhysicalType::kFloat: KeepEntries(floats, keep); break;
    case PhysicalType::kDouble: KeepEntries(doubles, keep); break;
    case PhysicalType::kBinary:
      offsets[kept] = byte_end;
      offsets.resize(kept + 1);
      bytes.resize(static_cast<size_t>(byte_end));
      break;
  }
  length = kept;
  validity.resize(BitmapBytes(kept));
  FinishValidity();
}

void ColumnVector::AssignRows(const ColumnVector& from, size_t begin, size_t count) {
  type = from.type;
  if (from.length == 0) {  // a TAG/ATTRIBUTE placeholder: nothing stored
    Clear();
    return;
  }
  length = count;
  validity.assign(BitmapBytes(count), 0);
  for (size_t r = 0; r < count; ++r) {
    if (from.IsValid(begin + r)) validity[r >> 3] |= static_cast<uint8_t>(1u << (r & 7));
  }
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean: AssignRange(bools, from.bools, begin, count); break;
    case PhysicalType::kInt32: AssignRange(int32s, from.int32s, begin, count); break;
    case PhysicalType::kInt64: AssignRange(int64s, from.int64s, begin, count); break;
    case PhysicalType::kFloat: AssignRange(floats, from.floats, begin, count); break;
    case PhysicalType::kDouble: AssignRange(doubles, from.doubles, begin, count); break;
    case PhysicalType::kBinary: {
      const int32_t base = from.offsets[begin];
      offsets.resize(count + 1);
      for (size_t r = 0; r <= count; ++r) offsets[r] = from.offsets[begin + r] - base;
      bytes.assign(from.bytes.begin() + base, from.bytes.begin() + from.offsets[begin + count]);
      break;
    }
  }
  FinishValidity();
}

}  // namespace tsread
