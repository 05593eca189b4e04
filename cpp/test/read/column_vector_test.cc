// ColumnVector: Arrow's layout (LSB-first validity, null_count, offsets + owned bytes) kept exact
// through resizing, row filtering and slicing.
#include "tsread/read/column_vector.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

// A STRING column of `values` (nullopt = null row), built the way the page decoder does.
ColumnVector Strings(const std::vector<std::optional<std::string>>& values) {
  ColumnVector c;
  c.type = DataType::kString;
  c.Resize(values.size());
  std::fill(c.validity.begin(), c.validity.end(), 0);
  c.bytes.clear();
  for (size_t r = 0; r < values.size(); ++r) {
    c.offsets[r] = static_cast<int32_t>(c.bytes.size());
    if (!values[r].has_value()) continue;
    c.validity[r / 8] |= static_cast<uint8_t>(1u << (r % 8));
    c.bytes.insert(c.bytes.end(), values[r]->begin(), values[r]->end());
  }
  c.offsets[values.size()] = static_cast<int32_t>(c.bytes.size());
  c.FinishValidity();
  return c;
}

// Every buffer and count of `got` equals `want`'s.
void ExpectSameColumn(const ColumnVector& got, const ColumnVector& want) {
  EXPECT_EQ(got.length, want.length);
  EXPECT_EQ(got.null_count, want.null_count);
  EXPECT_EQ(got.validity, want.validity);
  EXPECT_EQ(got.int64s, want.int64s);
  EXPECT_EQ(got.doubles, want.doubles);
  EXPECT_EQ(got.offsets, want.offsets);
  EXPECT_EQ(got.bytes, want.bytes);
}

TEST(ColumnVectorTest, SetAllValidLeavesNoBitsPastTheLastRow) {
  ColumnVector c;
  c.type = DataType::kInt32;
  c.Resize(11);
  c.SetAllValid();
  EXPECT_EQ(c.validity, (std::vector<uint8_t>{0xFF, 0x07}));
  EXPECT_EQ(c.null_count, 0u);
  EXPECT_EQ(c.int32s.size(), 11u);
}

TEST(ColumnVectorTest, SetAllNullZeroesSlotsAndCountsEveryRow) {
  ColumnVector c;
  c.type = DataType::kDouble;
  c.Resize(3);
  c.doubles = {1.0, 2.0, 3.0};
  c.SetAllNull();
  EXPECT_EQ(c.null_count, 3u);
  EXPECT_EQ(c.validity, (std::vector<uint8_t>{0}));
  EXPECT_EQ(c.doubles, (std::vector<double>{0, 0, 0}));
  ColumnVector s = Strings({"a", "bc"});
  s.SetAllNull();
  EXPECT_EQ(s.offsets, (std::vector<int32_t>{0, 0, 0}));
  EXPECT_TRUE(s.bytes.empty());
}

TEST(ColumnVectorTest, FinishValidityCountsNullsAndMasksTheTail) {
  ColumnVector c;
  c.type = DataType::kInt64;
  c.Resize(10);
  c.validity = {0b10110101, 0xFF};  // rows 8, 9 valid; bits 10..15 must be cleared
  c.FinishValidity();
  EXPECT_EQ(c.validity[1], 0x03);
  EXPECT_EQ(c.null_count, 3u);  // rows 1, 3, 6
  EXPECT_FALSE(c.IsValid(1));
  EXPECT_TRUE(c.IsValid(2));
  EXPECT_TRUE(c.IsValid(9));
}

TEST(ColumnVectorTest, KeepRowsCompactsBitmapValuesAndStrings) {
  ColumnVector c = Strings({"zero", std::nullopt, "two", "", "four", std::nullopt, "six", "seven", "eight"});
  ASSERT_EQ(c.null_count, 2u);
  c.KeepRows({0, 1, 1, 1, 0, 0, 1, 0, 1});  // rows 1, 2, 3, 6, 8
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(c.null_count, 1u);
  EXPECT_EQ(c.validity, (std::vector<uint8_t>{0b11110}));
  EXPECT_EQ(c.binary(0), "");
  EXPECT_EQ(c.binary(1), "two");
  EXPECT_EQ(c.binary(2), "");
  EXPECT_EQ(c.binary(3), "six");
  EXPECT_EQ(c.binary(4), "eight");
  EXPECT_EQ(std::string(c.bytes.begin(), c.bytes.end()), "twosixeight");

  ColumnVector ints;
  ints.type = DataType::kInt32;
  ints.Resize(4);
  ints.int32s = {10, 11, 12, 13};
  ints.validity = {0b1011};
  ints.FinishValidity();
  ints.KeepRows({1, 0, 1, 1});
  EXPECT_EQ(ints.int32s, (std::vector<int32_t>{10, 12, 13}));
  EXPECT_EQ(ints.validity, (std::vector<uint8_t>{0b101}));
  EXPECT_EQ(ints.null_count, 1u);
}

TEST(ColumnVectorTest, AssignRowsSlicesAcrossBitmapBytesAndRebasesOffsets) {
  std::vector<std::optional<std::string>> values;
  for (int r = 0; r < 20; ++r) {
    if (r % 3 == 0) {
      values.push_back(std::nullopt);
    } else {
      values.push_back(std::string(static_cast<size_t>(r % 4), static_cast<char>('a' + r)));
    }
  }
  const ColumnVector from = Strings(values);
  ColumnVector slice;
  slice.AssignRows(from, 5, 10);  // rows 5..14: nulls at 6, 9, 12
  ASSERT_EQ(slice.size(), 10u);
  EXPECT_EQ(slice.null_count, 3u);
  EXPECT_EQ(slice.offsets.front(), 0);
  for (size_t r = 0; r < 10; ++r) {
    const auto& want = values[5 + r];
    EXPECT_EQ(slice.IsValid(r), want.has_value()) << r;
    EXPECT_EQ(slice.binary(r), want.value_or("")) << r;
  }
  EXPECT_EQ(slice.validity.size(), 2u);
  EXPECT_EQ(slice.validity[1] & ~0x03, 0);
}

TEST(ColumnVectorTest, KeepRangeEqualsKeepRowsOfTheSameRun) {
  // KeepRange against the per-row KeepRows (the reference) for every run of a STRING and an INT64
  // column with and without nulls, across bitmap bytes.
  std::vector<std::optional<std::string>> values;
  for (int r = 0; r < 21; ++r) {
    values.push_back(r % 3 == 0 ? std::nullopt : std::optional<std::string>(std::string(r % 4, 'a' + r)));
  }
  for (const bool nulls : {false, true}) {
    ColumnVector strings = Strings(values);
    ColumnVector ints;
    ints.type = DataType::kInt64;
    ints.Resize(values.size());
    for (size_t r = 0; r < values.size(); ++r) ints.int64s[r] = static_cast<int64_t>(r * r);
    if (nulls) {
      ints.validity = strings.validity;
      ints.FinishValidity();
    } else {
      ints.SetAllValid();
      strings = Strings(std::vector<std::optional<std::string>>(values.size(), "xy"));
    }
    for (size_t begin = 0; begin <= values.size(); ++begin) {
      for (size_t end = begin; end <= values.size(); ++end) {
        SCOPED_TRACE(::testing::Message() << nulls << " [" << begin << ", " << end << ")");
        std::vector<uint8_t> keep(values.size(), 0);
        std::fill(keep.begin() + static_cast<std::ptrdiff_t>(begin), keep.begin() + static_cast<std::ptrdiff_t>(end), 1);
        for (const ColumnVector* original : {&strings, &ints}) {
          ColumnVector want = *original, got = *original;
          want.KeepRows(keep);
          got.KeepRange(begin, end);
          ExpectSameColumn(got, want);
        }
      }
    }
  }
}

TEST(ColumnVectorTest, RemoveRangesEqualsKeepRowsOfTheSameRows) {
  // RemoveRanges against the per-row KeepRows (the reference) for every pair of disjoint ranges
  // (one of them possibly empty) of a STRING and a DOUBLE column, with and without nulls.
  std::vector<std::optional<std::string>> values;
  for (int r = 0; r < 19; ++r) {
    values.push_back(r % 4 == 1 ? std::nullopt : std::optional<std::string>(std::string(r % 3, 'a' + r)));
  }
  const size_t n = values.size();
  for (const bool nulls : {false, true}) {
    ColumnVector strings = nulls ? Strings(values) : Strings(std::vector<std::optional<std::string>>(n, "xyz"));
    ColumnVector doubles;
    doubles.type = DataType::kDouble;
    doubles.Resize(n);
    for (size_t r = 0; r < n; ++r) doubles.doubles[r] = 0.5 * static_cast<double>(r);
    if (nulls) {
      doubles.validity = strings.validity;
      doubles.FinishValidity();
      for (size_t r = 0; r < n; ++r) {
        if (!doubles.IsValid(r)) doubles.doubles[r] = 0;
      }
    } else {
      doubles.SetAllValid();
    }
    for (size_t a = 0; a <= n; ++a) {
      for (size_t b = a; b <= n; ++b) {
        for (size_t c = b; c <= n; c += 3) {
          const size_t d = std::min(n, c + (a % 4));
          SCOPED_TRACE(::testing::Message() << nulls << " [" << a << ", " << b << ") [" << c << ", " << d << ")");
          std::vector<uint8_t> keep(n, 1);
          for (size_t r = a; r < b; ++r) keep[r] = 0;
          for (size_t r = c; r < d; ++r) keep[r] = 0;
          const std::vector<std::pair<size_t, size_t>> ranges = {{a, b}, {c, d}};
          for (const ColumnVector* original : {&strings, &doubles}) {
            ColumnVector want = *original, got = *original;
            want.KeepRows(keep);
            got.RemoveRanges(ranges);
            ExpectSameColumn(got, want);
          }
        }
      }
    }
  }
}

TEST(ColumnVectorTest, ClearKeepsOneZeroOffset) {
  ColumnVector c = Strings({"x"});
  c.Clear();
  EXPECT_EQ(c.size(), 0u);
  EXPECT_EQ(c.null_count, 0u);
  EXPECT_EQ(c.offsets, (std::vector<int32_t>{0}));
}

}  // namespace
}  // namespace tsread
