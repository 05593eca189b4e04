#include "tsread/read/column_vector.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "tsread/common/bitmap.h"

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
  if (!VisitFixedWidthValues(type, [&](auto values) { (this->*values).resize(rows); })) offsets.resize(rows + 1);
}

void ColumnVector::SetAllValid() {
  std::fill(validity.begin(), validity.end(), 0xFF);
  FinishValidity();
}

void ColumnVector::SetAllNull() {
  std::fill(validity.begin(), validity.end(), 0);
  null_count = length;
  const bool fixed_width = VisitFixedWidthValues(type, [&](auto values) {
    auto& v = this->*values;
    std::fill(v.begin(), v.end(), typename std::decay_t<decltype(v)>::value_type{});
  });
  if (!fixed_width) {
    std::fill(offsets.begin(), offsets.end(), 0);
    bytes.clear();
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
  if (binary) {
    offsets[kept] = byte_end;
    offsets.resize(kept + 1);
    bytes.resize(static_cast<size_t>(byte_end));
  } else {
    VisitFixedWidthValues(type, [&](auto values) { KeepEntries(this->*values, keep); });
  }
  length = kept;
  validity.resize(BitmapBytes(kept));
  FinishValidity();
}

void ColumnVector::KeepRange(size_t begin, size_t end) {
  if (length == 0) return;  // a TAG/ATTRIBUTE placeholder
  const size_t count = end - begin;
  if (null_count == 0) {
    validity.assign(BitmapBytes(count), 0xFF);
  } else if (begin % 8 == 0) {
    std::memmove(validity.data(), validity.data() + begin / 8, BitmapBytes(count));
    validity.resize(BitmapBytes(count));
  } else {
    // Bits move left by `begin`: each output byte from two input bytes.
    const size_t shift = begin % 8;
    const size_t from = begin / 8;
    const size_t in_bytes = validity.size();
    for (size_t k = 0; k < BitmapBytes(count); ++k) {
      const unsigned low = validity[from + k];
      const unsigned high = from + k + 1 < in_bytes ? validity[from + k + 1] : 0;
      validity[k] = static_cast<uint8_t>((low >> shift) | (high << (8 - shift)));
    }
    validity.resize(BitmapBytes(count));
  }
  if (PhysicalTypeOf(type) == PhysicalType::kBinary) {
    const int32_t base = offsets[begin];
    const int32_t stop = offsets[end];
    if (stop > base) std::memmove(bytes.data(), bytes.data() + base, static_cast<size_t>(stop - base));
    for (size_t r = 0; r <= count; ++r) offsets[r] = offsets[begin + r] - base;
    offsets.resize(count + 1);
    bytes.resize(static_cast<size_t>(stop - base));
  } else {
    VisitFixedWidthValues(type, [&](auto values) {
      auto& v = this->*values;
      if (count > 0 && begin > 0) std::memmove(v.data(), v.data() + begin, count * sizeof(v[0]));
      v.resize(count);
    });
  }
  length = count;
  FinishValidity();
}

void ColumnVector::RemoveRanges(std::span<const std::pair<size_t, size_t>> ranges) {
  if (length == 0 || ranges.empty()) return;  // a TAG/ATTRIBUTE placeholder, or nothing removed
  const bool all_valid = null_count == 0;
  const bool binary = !VisitFixedWidthValues(type, [&](auto values) { RemoveEntryRanges(this->*values, ranges); });
  size_t kept = 0;   // rows kept so far: the next block's destination
  int32_t byte_end = 0;
  // Moves the bits of rows [begin, end) (and a binary column's offsets and bytes) down to row `kept`.
  auto keep_block = [&](size_t begin, size_t end) {
    if (begin >= end) return;
    const size_t count = end - begin;
    if (!all_valid && kept != begin) {
      for (size_t r = 0; r < count; ++r) SetBit(validity, kept + r, IsValid(begin + r));
    }
    if (binary) {
      const int32_t base = offsets[begin];
      const int32_t stop = offsets[end];
      if (stop > base && byte_end != base) {
        std::memmove(bytes.data() + byte_end, bytes.data() + base, static_cast<size_t>(stop - base));
      }
      for (size_t r = 0; r < count; ++r) offsets[kept + r] = offsets[begin + r] - base + byte_end;
      byte_end += stop - base;
    }
    kept += count;
  };
  size_t from = 0;
  for (const auto& [begin, end] : ranges) {
    keep_block(from, begin);
    from = end;
  }
  keep_block(from, length);
  if (binary) {
    offsets[kept] = byte_end;
    offsets.resize(kept + 1);
    bytes.resize(static_cast<size_t>(byte_end));
  }
  length = kept;
  validity.resize(BitmapBytes(kept));
  if (all_valid) {
    std::fill(validity.begin(), validity.end(), 0xFF);
  }
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
  CopyBits(from.validity.data(), begin, validity.data(), 0, count);
  const bool fixed_width =
      VisitFixedWidthValues(type, [&](auto values) { AssignRange(this->*values, from.*values, begin, count); });
  if (!fixed_width) {
    const int32_t base = from.offsets[begin];
    offsets.resize(count + 1);
    for (size_t r = 0; r <= count; ++r) offsets[r] = from.offsets[begin + r] - base;
    bytes.assign(from.bytes.begin() + base, from.bytes.begin() + from.offsets[begin + count]);
  }
  FinishValidity();
}

}  // namespace tsread
