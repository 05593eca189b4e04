// BoundPredicate: binding to each type (rewrites of operands that do not fit), verdicts from
// hand-made statistics, and KeepMatches against a row-by-row loop on random columns.
#include "tsread/read/bound_predicate.h"

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

BoundPredicate Bind(DataType type, CompareOp op, std::vector<PredicateValue> values) {
  absl::StatusOr<BoundPredicate> bound = BindPredicate(ValuePredicate{"c", op, std::move(values)}, type, 0);
  EXPECT_TRUE(bound.ok()) << bound.status();
  return bound.ok() ? *bound : BoundPredicate{};
}

TEST(BoundPredicateTest, FractionalOperandsAgainstIntegersAreRewritten) {
  BoundPredicate p = Bind(DataType::kInt64, CompareOp::kLt, {2.5});
  EXPECT_EQ(p.op, CompareOp::kLt);
  EXPECT_EQ(p.ints, std::vector<int64_t>{3});  // x < 2.5  <=>  x < 3
  p = Bind(DataType::kInt64, CompareOp::kGt, {-2.5});
  EXPECT_EQ(p.ints, std::vector<int64_t>{-3});  // x > -2.5  <=>  x > -3
  p = Bind(DataType::kInt64, CompareOp::kEq, {2.5});
  EXPECT_EQ(p.op, CompareOp::kEq);
  EXPECT_TRUE(p.ints.empty());  // nothing matches
  p = Bind(DataType::kInt64, CompareOp::kNe, {2.5});
  EXPECT_EQ(p.op, CompareOp::kIsNotNull);
  p = Bind(DataType::kInt64, CompareOp::kLt, {1e30});
  EXPECT_EQ(p.op, CompareOp::kIsNotNull);
  p = Bind(DataType::kInt64, CompareOp::kGe, {1e30});
  EXPECT_TRUE(p.op == CompareOp::kEq && p.ints.empty());
  // INT32 against operands beyond its range.
  p = Bind(DataType::kInt32, CompareOp::kLt, {int64_t{5000000000}});
  EXPECT_EQ(p.op, CompareOp::kIsNotNull);
  p = Bind(DataType::kInt32, CompareOp::kEq, {int64_t{5000000000}, int64_t{7}});
  EXPECT_EQ(p.ints, std::vector<int64_t>{7});
  p = Bind(DataType::kDouble, CompareOp::kNe, {std::nan("")});
  EXPECT_EQ(p.op, CompareOp::kIsNotNull);
}

TEST(BoundPredicateTest, TextConvertsToTheColumnsType) {
  EXPECT_EQ(Bind(DataType::kInt32, CompareOp::kEq, {std::string(" 42 ")}).ints, std::vector<int64_t>{42});
  EXPECT_EQ(Bind(DataType::kDate, CompareOp::kGe, {std::string("2024-01-31")}).ints, std::vector<int64_t>{20240131});
  EXPECT_EQ(Bind(DataType::kBoolean, CompareOp::kEq, {std::string("TRUE")}).ints, std::vector<int64_t>{1});
  EXPECT_EQ(Bind(DataType::kDouble, CompareOp::kLt, {std::string("1e3")}).floats, std::vector<double>{1000});
  // A FLOAT column compares in float: 0.1 becomes the float nearest it.
  EXPECT_EQ(Bind(DataType::kFloat, CompareOp::kLt, {0.1}).floats, std::vector<double>{static_cast<float>(0.1)});
  EXPECT_EQ(Bind(DataType::kFloat, CompareOp::kLt, {1e300}).floats,
            std::vector<double>{std::numeric_limits<double>::infinity()});
}

TEST(BoundPredicateTest, WrongTypesNameThePredicate) {
  for (const auto& [type, value] : std::vector<std::pair<DataType, PredicateValue>>{
           {DataType::kInt64, std::string("abc")}, {DataType::kText, int64_t{1}}, {DataType::kBoolean, 2.0},
           {DataType::kDouble, true}}) {
    absl::StatusOr<BoundPredicate> bound = BindPredicate(ValuePredicate{"col_x", CompareOp::kEq, {value}}, type, 0);
    ASSERT_FALSE(bound.ok());
    EXPECT_EQ(bound.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(bound.status().message()).find("col_x"), std::string::npos);
  }
}

// A fraction written as text compares exactly where a double cannot hold it: the new user's
// `i64 > 9223372036854775806.5` returned nothing, though INT64_MAX is greater.
TEST(BoundPredicateTest, DecimalTextAgainstIntegersComparesExactly) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
  BoundPredicate p = Bind(DataType::kInt64, CompareOp::kGt, {std::string("9223372036854775806.5")});
  EXPECT_EQ(p.op, CompareOp::kGt);
  EXPECT_EQ(p.ints, std::vector<int64_t>{kMax - 1});  // x > ...806.5  <=>  x > ...806
  p = Bind(DataType::kInt64, CompareOp::kLe, {std::string("9223372036854775806.5")});
  EXPECT_EQ(p.ints, std::vector<int64_t>{kMax - 1});
  p = Bind(DataType::kInt64, CompareOp::kGe, {std::string("9223372036854775806.5")});
  EXPECT_EQ(p.ints, std::vector<int64_t>{kMax});
  p = Bind(DataType::kInt64, CompareOp::kLt, {std::string("-9223372036854775807.25")});
  EXPECT_EQ(p.ints, std::vector<int64_t>{kMin + 1});  // x < -...807.25  <=>  x < -...807
  p = Bind(DataType::kInt64, CompareOp::kGt, {std::string("-9223372036854775808.5")});
  EXPECT_EQ(p.op, CompareOp::kIsNotNull);  // below every INT64: every non-null row
  p = Bind(DataType::kInt64, CompareOp::kGe, {std::string("-9223372036854775808")});
  EXPECT_EQ(p.ints, std::vector<int64_t>{kMin});
  p = Bind(DataType::kInt64, CompareOp::kEq, {std::string("9223372036854775807.0")});
  EXPECT_EQ(p.ints, std::vector<int64_t>{kMax});
  p = Bind(DataType::kInt64, CompareOp::kEq, {std::string("9223372036854775806.5")});
  EXPECT_TRUE(p.op == CompareOp::kEq && p.ints.empty());  // no integer equals it
  p = Bind(DataType::kInt64, CompareOp::kGt, {std::string("9223372036854775807.5")});
  EXPECT_TRUE(p.op == CompareOp::kGt && p.ints == std::vector<int64_t>{kMax});  // x > INT64_MAX: no row
  p = Bind(DataType::kInt64, CompareOp::kGe, {std::string("9223372036854775807.5")});
  EXPECT_TRUE(p.op == CompareOp::kEq && p.ints.empty());  // above every INT64
  p = Bind(DataType::kInt64, CompareOp::kLt, {std::string("1e19")});
  EXPECT_EQ(p.op, CompareOp::kIsNotNull);
  p = Bind(DataType::kInt64, CompareOp::kEq, {std::string("12.5e1")});
  EXPECT_EQ(p.ints, std::vector<int64_t>{125});
  p = Bind(DataType::kInt32, CompareOp::kLe, {std::string("-0.5")});
  EXPECT_EQ(p.ints, std::vector<int64_t>{-1});
  p = Bind(DataType::kInt64, CompareOp::kGe, {std::string("0.000000000000000000000001")});
  EXPECT_EQ(p.ints, std::vector<int64_t>{1});
}

TEST(BoundPredicateTest, DatesMustNameADay) {
  EXPECT_EQ(Bind(DataType::kDate, CompareOp::kGt, {std::string("20240229")}).ints, std::vector<int64_t>{20240229});
  EXPECT_EQ(Bind(DataType::kDate, CompareOp::kGt, {int64_t{20000229}}).ints, std::vector<int64_t>{20000229});
  for (const PredicateValue& v : std::vector<PredicateValue>{std::string("2024-13-45"), std::string("20240231"),
                                                            std::string("2023-02-29"), std::string("19000229"),
                                                            std::string("2024-00-10"), int64_t{20241301}, int64_t{5},
                                                            2.5, std::string("tomorrow")}) {
    absl::StatusOr<BoundPredicate> bound = BindPredicate(ValuePredicate{"f_date", CompareOp::kGt, {v}}, DataType::kDate, 0);
    ASSERT_FALSE(bound.ok()) << DescribePredicate(ValuePredicate{"f_date", CompareOp::kGt, {v}});
    EXPECT_EQ(bound.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(bound.status().message()).find("is not a date"), std::string::npos) << bound.status();
  }
}

TEST(BoundPredicateTest, BlobOperandsInHexAreBytes) {
  EXPECT_EQ(Bind(DataType::kBlob, CompareOp::kEq, {std::string("0x75")}).bytes, std::vector<std::string>{"u"});
  EXPECT_EQ(Bind(DataType::kBlob, CompareOp::kEq, {std::string("0X00fF")}).bytes,
            std::vector<std::string>{std::string("\0\xff", 2)});
  EXPECT_EQ(Bind(DataType::kBlob, CompareOp::kEq, {std::string("0x")}).bytes, std::vector<std::string>{""});
  EXPECT_EQ(Bind(DataType::kBlob, CompareOp::kEq, {std::string("plain")}).bytes, std::vector<std::string>{"plain"});
  // TEXT and STRING keep the text as it is.
  EXPECT_EQ(Bind(DataType::kString, CompareOp::kEq, {std::string("0x75")}).bytes, std::vector<std::string>{"0x75"});
  for (const char* bad : {"0x7", "0xzz", "0x75 "}) {
    absl::StatusOr<BoundPredicate> bound =
        BindPredicate(ValuePredicate{"f_blob", CompareOp::kEq, {std::string(bad)}}, DataType::kBlob, 0);
    ASSERT_FALSE(bound.ok()) << bad;
    EXPECT_NE(std::string(bound.status().message()).find("not hex"), std::string::npos);
  }
}

Statistics IntStatistics(int64_t lo, int64_t hi, uint32_t count) {
  Statistics s;
  s.type = DataType::kInt64;
  s.count = count;
  s.int_min = lo;
  s.int_max = hi;
  return s;
}

TEST(BoundPredicateTest, VerdictsFromStatistics) {
  const Statistics s = IntStatistics(10, 20, 100);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kInt64, CompareOp::kGt, {int64_t{20}}), &s, 100), Verdict::kNone);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kInt64, CompareOp::kGt, {int64_t{19}}), &s, 100), Verdict::kSome);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kInt64, CompareOp::kGe, {int64_t{10}}), &s, 100), Verdict::kAll);
  // A null among the rows: not every row matches.
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kInt64, CompareOp::kGe, {int64_t{10}}), &s, 101), Verdict::kSome);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kInt64, CompareOp::kEq, {int64_t{9}, int64_t{21}}), &s, 100),
            Verdict::kNone);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kInt64, CompareOp::kIsNull, {}), &s, 100), Verdict::kNone);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kInt64, CompareOp::kIsNull, {}), nullptr, 100), Verdict::kAll);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kInt64, CompareOp::kNe, {int64_t{5}}), nullptr, 100), Verdict::kNone);
  // Doubles: a NaN sum means a NaN may hide among the rows (it matches only !=).
  Statistics d;
  d.type = DataType::kDouble;
  d.count = 10;
  d.float_min = 1;
  d.float_max = 1;
  d.float_sum = 10;
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kDouble, CompareOp::kNe, {1.0}), &d, 10), Verdict::kNone);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kDouble, CompareOp::kLt, {2.0}), &d, 10), Verdict::kAll);
  d.float_sum = std::nan("");
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kDouble, CompareOp::kNe, {1.0}), &d, 10), Verdict::kSome);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kDouble, CompareOp::kLt, {2.0}), &d, 10), Verdict::kSome);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kDouble, CompareOp::kGt, {2.0}), &d, 10), Verdict::kNone);
  d.float_min = std::nan("");  // the first value was NaN: the range bounds nothing
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kDouble, CompareOp::kGt, {2.0}), &d, 10), Verdict::kSome);
  // STRING: equality only, and only outside the range in every string order.
  Statistics t;
  t.type = DataType::kString;
  t.count = 5;
  t.bin_min = "b";
  t.bin_max = "d";
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kString, CompareOp::kEq, {std::string("a")}), &t, 5), Verdict::kNone);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kString, CompareOp::kEq, {std::string("c")}), &t, 5), Verdict::kSome);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kString, CompareOp::kLt, {std::string("a")}), &t, 5), Verdict::kSome);
  // Statistics ["a", "é"] (code-point order, as the reference files' are): "b" lies inside them in
  // byte order but outside in signed bytes (where é sorts first), so it is not ruled out.
  t.bin_min = "a";
  t.bin_max = "\xc3\xa9";
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kString, CompareOp::kEq, {std::string("b")}), &t, 5), Verdict::kSome);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kString, CompareOp::kEq, {std::string("\xe4\xb8\x80")}), &t, 5),
            Verdict::kNone);  // 一: outside in every order
  // BOOLEAN by its sum of trues.
  Statistics b;
  b.type = DataType::kBoolean;
  b.count = 4;
  b.int_sum = 4;
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kBoolean, CompareOp::kEq, {true}), &b, 4), Verdict::kAll);
  EXPECT_EQ(StatisticsVerdict(Bind(DataType::kBoolean, CompareOp::kEq, {false}), &b, 4), Verdict::kNone);
}

// The row-by-row reference: SQL semantics on one value.
template <typename T>
bool Reference(CompareOp op, T v, T x) {
  switch (op) {
    case CompareOp::kEq: return v == x;
    case CompareOp::kNe: return v != x;
    case CompareOp::kLt: return v < x;
    case CompareOp::kLe: return v <= x;
    case CompareOp::kGt: return v > x;
    default: return v >= x;
  }
}

TEST(BoundPredicateTest, KeepMatchesEqualsARowByRowLoop) {
  std::mt19937_64 random(7);
  for (int round = 0; round < 200; ++round) {
    const size_t n = random() % 300;
    ColumnVector ints, doubles;
    ints.type = DataType::kInt64;
    doubles.type = DataType::kDouble;
    ints.Resize(n);
    doubles.Resize(n);
    for (size_t r = 0; r < n; ++r) {
      ints.int64s[r] = static_cast<int64_t>(random() % 21) - 10;
      const int pick = static_cast<int>(random() % 12);
      doubles.doubles[r] = pick == 0 ? std::nan("") : pick == 1 ? -0.0 : static_cast<double>(pick) - 6;
      const bool valid = random() % 5 != 0;
      ints.validity[r / 8] = static_cast<uint8_t>((ints.validity[r / 8] & ~(1u << (r % 8))) | (valid << (r % 8)));
      doubles.validity[r / 8] = ints.validity[r / 8];
      if (!valid) ints.int64s[r] = 0, doubles.doubles[r] = 0;
    }
    ints.FinishValidity();
    doubles.FinishValidity();
    for (CompareOp op : {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt, CompareOp::kLe, CompareOp::kGt,
                         CompareOp::kGe, CompareOp::kIsNull, CompareOp::kIsNotNull}) {
      const bool null_test = op == CompareOp::kIsNull || op == CompareOp::kIsNotNull;
      const int64_t x = static_cast<int64_t>(random() % 21) - 10;
      const BoundPredicate pi = Bind(DataType::kInt64, op, null_test ? std::vector<PredicateValue>{}
                                                                     : std::vector<PredicateValue>{x});
      const BoundPredicate pd = Bind(DataType::kDouble, op, null_test ? std::vector<PredicateValue>{}
                                                                      : std::vector<PredicateValue>{0.0});
      std::vector<uint8_t> keep_i(n, 1), keep_d(n, 1);
      KeepMatches(pi, ints, keep_i);
      KeepMatches(pd, doubles, keep_d);
      for (size_t r = 0; r < n; ++r) {
        const bool valid = ints.IsValid(r);
        const bool want_i = op == CompareOp::kIsNull ? !valid : op == CompareOp::kIsNotNull ? valid
                                                                                            : valid && Reference(op, ints.int64s[r], x);
        const bool want_d = op == CompareOp::kIsNull ? !valid : op == CompareOp::kIsNotNull ? valid
                                                                                            : valid && Reference(op, doubles.doubles[r], 0.0);
        ASSERT_EQ(keep_i[r] != 0, want_i) << "row " << r;
        ASSERT_EQ(keep_d[r] != 0, want_d) << "row " << r << " value " << doubles.doubles[r];
      }
    }
  }
}

}  // namespace
}  // namespace tsread
