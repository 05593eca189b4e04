// CastColumn: each cast with its values written out (Java's String.valueOf for text).
#include "tsread/dataset/column_cast.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

// A column of `type` with `n` rows, row 1 null when n > 1; `fill` sets the valid rows' values.
template <typename Fill>
ColumnVector Column(DataType type, size_t n, Fill fill) {
  ColumnVector c;
  c.type = type;
  c.Resize(n);
  c.SetAllNull();
  for (size_t r = 0; r < n; ++r) {
    if (r == 1) continue;
    c.validity[r >> 3] |= static_cast<uint8_t>(1u << (r & 7));
    fill(c, r);
  }
  c.FinishValidity();
  return c;
}

std::vector<std::string> Texts(const ColumnVector& c) {
  std::vector<std::string> out;
  for (size_t r = 0; r < c.size(); ++r) out.push_back(c.IsValid(r) ? std::string(c.binary(r)) : "<null>");
  return out;
}

TEST(ColumnCastTest, NumbersWiden) {
  ColumnVector ints = Column(DataType::kInt32, 3, [](ColumnVector& c, size_t r) { c.int32s[r] = r == 0 ? -7 : 2147483647; });
  ColumnVector as_double = ints;
  CastColumn(as_double, DataType::kDouble);
  EXPECT_EQ(as_double.type, DataType::kDouble);
  EXPECT_EQ(as_double.doubles[0], -7.0);
  EXPECT_EQ(as_double.doubles[2], 2147483647.0);
  EXPECT_FALSE(as_double.IsValid(1));
  EXPECT_EQ(as_double.null_count, 1u);
  ColumnVector as_long = ints;
  CastColumn(as_long, DataType::kInt64);
  EXPECT_EQ(as_long.int64s[2], 2147483647);
  ColumnVector as_float = ints;
  CastColumn(as_float, DataType::kFloat);
  EXPECT_EQ(as_float.floats[2], 2147483648.0f);  // Java's (float) rounds as C++ does
  ColumnVector floats = Column(DataType::kFloat, 1, [](ColumnVector& c, size_t) { c.floats[0] = 0.1f; });
  CastColumn(floats, DataType::kDouble);
  EXPECT_EQ(floats.doubles[0], static_cast<double>(0.1f));
  ColumnVector stamps = Column(DataType::kTimestamp, 1, [](ColumnVector& c, size_t) { c.int64s[0] = 1700000000000; });
  CastColumn(stamps, DataType::kInt64);
  EXPECT_EQ(stamps.type, DataType::kInt64);
  EXPECT_EQ(stamps.int64s[0], 1700000000000);
}

TEST(ColumnCastTest, EverythingToTextAsJavaWritesIt) {
  ColumnVector f = Column(DataType::kFloat, 3, [](ColumnVector& c, size_t r) { c.floats[r] = r == 0 ? 1.5f : 1e10f; });
  CastColumn(f, DataType::kString);
  EXPECT_EQ(Texts(f), (std::vector<std::string>{"1.5", "<null>", "1.0E10"}));
  ColumnVector d = Column(DataType::kDouble, 1, [](ColumnVector& c, size_t) { c.doubles[0] = 1.0; });
  CastColumn(d, DataType::kText);
  EXPECT_EQ(Texts(d), (std::vector<std::string>{"1.0"}));
  ColumnVector b = Column(DataType::kBoolean, 3, [](ColumnVector& c, size_t r) { c.bools[r] = r == 0; });
  CastColumn(b, DataType::kString);
  EXPECT_EQ(Texts(b), (std::vector<std::string>{"true", "<null>", "false"}));
  ColumnVector date = Column(DataType::kDate, 1, [](ColumnVector& c, size_t) { c.int32s[0] = 20240229; });
  CastColumn(date, DataType::kString);
  EXPECT_EQ(Texts(date), (std::vector<std::string>{"2024-02-29"}));
  ColumnVector longs = Column(DataType::kInt64, 1, [](ColumnVector& c, size_t) { c.int64s[0] = -9223372036854775807 - 1; });
  CastColumn(longs, DataType::kString);
  EXPECT_EQ(Texts(longs), (std::vector<std::string>{"-9223372036854775808"}));
}

TEST(ColumnCastTest, BinaryKindsKeepTheirBytes) {
  ColumnVector s;
  s.type = DataType::kString;
  s.Resize(2);
  s.SetAllValid();
  s.offsets = {0, 2, 5};
  s.bytes = {'h', 'i', '\x00', '\xff', 'x'};
  ColumnVector blob = s;
  CastColumn(blob, DataType::kBlob);
  EXPECT_EQ(blob.type, DataType::kBlob);
  EXPECT_EQ(blob.binary(1), std::string_view("\x00\xff" "x", 3));
  CastColumn(blob, DataType::kText);
  EXPECT_EQ(blob.binary(0), "hi");
}

TEST(ColumnCastTest, ACastIotdbDoesNotMakeReadsNull) {
  ColumnVector b = Column(DataType::kBoolean, 3, [](ColumnVector& c, size_t r) { c.bools[r] = 1; });
  CastColumn(b, DataType::kInt64);
  EXPECT_EQ(b.type, DataType::kInt64);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b.null_count, 3u);
  for (size_t r = 0; r < 3; ++r) EXPECT_FALSE(b.IsValid(r));
}

}  // namespace
}  // namespace tsread
