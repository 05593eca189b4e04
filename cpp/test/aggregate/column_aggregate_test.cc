// ColumnAggregate::AddRows (typed loops in lanes) against AddRow row by row — the reference path —
// on random columns of every numeric type with nulls, NaN, 0.0 and -0.0, and extremes; and first /
// last by time whatever order rows and statistics arrive in.
#include "tsread/aggregate/column_aggregate.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

// Bit-exact equality of doubles (0.0 and -0.0 differ; NaN equals NaN).
bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

void ExpectSame(const ColumnAggregate& got, const ColumnAggregate& want) {
  ASSERT_EQ(got.count(), want.count());
  if (want.count() == 0) return;
  EXPECT_EQ(got.first_time(), want.first_time());
  EXPECT_EQ(got.last_time(), want.last_time());
  if (got.type() == DataType::kFloat || got.type() == DataType::kDouble) {
    EXPECT_TRUE(SameBits(got.min().d, want.min().d)) << got.min().d << " " << want.min().d;
    EXPECT_TRUE(SameBits(got.max().d, want.max().d)) << got.max().d << " " << want.max().d;
    EXPECT_TRUE(SameBits(got.first().d, want.first().d));
    EXPECT_TRUE(SameBits(got.last().d, want.last().d));
    // Lanes sum in another order: equal up to rounding (column_aggregate.h).
    if (std::isfinite(want.float_sum())) {
      EXPECT_NEAR(got.float_sum(), want.float_sum(), 1e-9 * (1 + std::fabs(want.float_sum())));
    } else {
      EXPECT_EQ(std::isnan(got.float_sum()), std::isnan(want.float_sum()));
    }
  } else {
    if (got.has_min_max()) {
      EXPECT_EQ(got.min().i, want.min().i);
      EXPECT_EQ(got.max().i, want.max().i);
      EXPECT_EQ(got.min().s, want.min().s);  // STRING
      EXPECT_EQ(got.max().s, want.max().s);
    }
    EXPECT_EQ(got.first().i, want.first().i);
    EXPECT_EQ(got.last().i, want.last().i);
    EXPECT_EQ(got.first().s, want.first().s);  // TEXT, STRING
    EXPECT_EQ(got.last().s, want.last().s);
    EXPECT_TRUE(got.int_sum() == want.int_sum());
  }
}

// A random column of `type` with `n` rows: about `null_share` nulls, and a mix of special values.
ColumnVector RandomColumn(DataType type, size_t n, double null_share, std::mt19937_64& rng) {
  ColumnVector c;
  c.type = type;
  c.Resize(n);
  std::uniform_real_distribution<double> unit(0, 1);
  const double specials[] = {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(), 1e300, -1e300, 1.5, -2.25};
  const int64_t ints[] = {0, -1, 1, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(), 42};
  for (size_t r = 0; r < n; ++r) {
    const bool special = unit(rng) < 0.2;
    switch (PhysicalTypeOf(type)) {
      case PhysicalType::kBoolean: c.bools[r] = rng() & 1; break;
      case PhysicalType::kInt32:
        c.int32s[r] = special ? static_cast<int32_t>(ints[rng() % 6]) : static_cast<int32_t>(rng());
        break;
      case PhysicalType::kInt64: c.int64s[r] = special ? ints[rng() % 6] : static_cast<int64_t>(rng()); break;
      case PhysicalType::kFloat:
        c.floats[r] = static_cast<float>(special ? specials[rng() % 7] : unit(rng) * 200 - 100);
        break;
      case PhysicalType::kDouble: c.doubles[r] = special ? specials[rng() % 7] : unit(rng) * 200 - 100; break;
      case PhysicalType::kBinary: break;
    }
  }
  if (PhysicalTypeOf(type) == PhysicalType::kBinary) {
    // Short strings of bytes below and above 0x80 (unsigned order differs from signed there).
    const char alphabet[] = {'a', 'b', 'z', '\x7f', '\x80', '\xc3', '\xa9', '\xff'};
    c.bytes.clear();
    c.offsets.assign(1, 0);
    for (size_t r = 0; r < n; ++r) {
      const size_t len = rng() % 4;
      for (size_t k = 0; k < len; ++k) c.bytes.push_back(alphabet[rng() % sizeof alphabet]);
      c.offsets.push_back(static_cast<int32_t>(c.bytes.size()));
    }
  }
  c.SetAllValid();
  if (null_share > 0) {
    for (size_t r = 0; r < n; ++r) {
      if (unit(rng) < null_share) c.validity[r / 8] &= static_cast<uint8_t>(~(1u << (r % 8)));
    }
    c.FinishValidity();
  }
  return c;
}

TEST(ColumnAggregateTest, AddRowsEqualsAddRowOneByOne) {
  std::mt19937_64 rng(0x636f6c61);
  for (DataType type : {DataType::kBoolean, DataType::kInt32, DataType::kDate, DataType::kInt64,
                        DataType::kTimestamp, DataType::kFloat, DataType::kDouble, DataType::kString}) {
    for (double null_share : {0.0, 0.3, 1.0}) {
      for (size_t n : {size_t{1}, size_t{3}, size_t{7}, size_t{64}, size_t{1001}}) {
        SCOPED_TRACE(::testing::Message() << DataTypeName(type) << " nulls " << null_share << " rows " << n);
        const ColumnVector values = RandomColumn(type, n, null_share, rng);
        std::vector<int64_t> times(n);
        for (size_t r = 0; r < n; ++r) times[r] = static_cast<int64_t>(r) * 10 - 500;
        // Two batches, the second starting inside the first's span of values (seeds from the first).
        const size_t cut = n / 2;
        ColumnAggregate got(type), want(type);
        got.AddRows(values, times.data(), 0, cut);
        got.AddRows(values, times.data(), cut, n);
        for (size_t r = 0; r < n; ++r) want.AddRow(values, r, times[r]);
        ExpectSame(got, want);
      }
    }
  }
}

TEST(ColumnAggregateTest, SignedZerosAsExtremesAreTheEarliest) {
  // Only 0.0, -0.0 and 5.0: the min is a zero, and which one is the first of them in row order.
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    ColumnVector v;
    v.type = DataType::kDouble;
    v.Resize(37);
    for (double& d : v.doubles) d = (rng() % 3 == 0) ? 5.0 : ((rng() & 1) ? 0.0 : -0.0);
    v.doubles[0] = 5.0;  // the seed is neither zero
    v.SetAllValid();
    std::vector<int64_t> times(v.length);
    for (size_t r = 0; r < v.length; ++r) times[r] = static_cast<int64_t>(r);
    ColumnAggregate got(DataType::kDouble), want(DataType::kDouble);
    got.AddRows(v, times.data());
    for (size_t r = 0; r < v.length; ++r) want.AddRow(v, r, times[r]);
    ExpectSame(got, want);
  }
}

TEST(ColumnAggregateTest, FirstAndLastFollowTimeNotArrival) {
  ColumnVector v;
  v.type = DataType::kInt64;
  v.Resize(2);
  v.int64s = {7, 9};
  v.SetAllValid();
  const int64_t late[] = {100, 200};
  const int64_t early[] = {10, 20};
  ColumnAggregate a(DataType::kInt64);
  a.AddRows(v, late);   // 7 at 100, 9 at 200
  a.AddRows(v, early);  // 7 at 10, 9 at 20: earlier rows arriving later
  EXPECT_EQ(a.first().i, 7);
  EXPECT_EQ(a.first_time(), 10);
  EXPECT_EQ(a.last().i, 9);
  EXPECT_EQ(a.last_time(), 200);
  EXPECT_EQ(a.count(), 4u);
  // Equal times: the first seen stays first, the last seen becomes last.
  v.int64s = {1, 2};
  const int64_t same[] = {10, 200};
  a.AddRows(v, same);
  EXPECT_EQ(a.first().i, 7);
  EXPECT_EQ(a.last().i, 2);
}

// The tail [tail, n) of `values` aggregated row by row: what WithoutHead must give.
ColumnAggregate TailRowByRow(const ColumnVector& values, const std::vector<int64_t>& times, size_t tail) {
  ColumnAggregate want(values.type);
  for (size_t r = tail; r < values.length; ++r) want.AddRow(values, r, times[r]);
  return want;
}

TEST(ColumnAggregateTest, WithoutHeadEqualsTheTailsRowsWhenItAnswers) {
  std::mt19937_64 rng(0x7461696c);
  for (DataType type : {DataType::kBoolean, DataType::kInt32, DataType::kDate, DataType::kInt64,
                        DataType::kTimestamp, DataType::kFloat, DataType::kDouble, DataType::kText,
                        DataType::kString}) {
    size_t answered = 0, cases = 0;
    for (double null_share : {0.0, 0.3, 0.9}) {
      for (size_t n : {size_t{2}, size_t{5}, size_t{64}, size_t{1000}}) {
        for (size_t tail : {size_t{1}, n / 3, n - 1}) {
          if (tail == 0 || tail >= n) continue;
          SCOPED_TRACE(::testing::Message() << DataTypeName(type) << " nulls " << null_share << " rows " << n
                                            << " tail " << tail);
          const ColumnVector values = RandomColumn(type, n, null_share, rng);
          std::vector<int64_t> times(n);
          for (size_t r = 0; r < n; ++r) times[r] = static_cast<int64_t>(r) * 10 + 7;
          ColumnAggregate page(type);
          for (size_t r = 0; r < n; ++r) page.AddRow(values, r, times[r]);
          // The head as a reader decodes it: the rows up to the tail's first.
          ColumnVector head = values;
          head.KeepRange(0, tail + 1);
          const std::optional<ColumnAggregate> got = page.WithoutHead(head, times.data(), tail);
          ++cases;
          if (!got.has_value()) continue;
          ++answered;
          ExpectSame(*got, TailRowByRow(values, times, tail));
        }
      }
    }
    // Most heads leave nothing open (types without extremes: every one).
    EXPECT_GT(answered, cases / 3) << DataTypeName(type);
  }
}

// A DOUBLE column of `v` (NaN as null when `nulls` marks it), times 0, 1, 2, ...
ColumnVector Doubles(const std::vector<double>& v, const std::vector<bool>& nulls = {}) {
  ColumnVector c;
  c.type = DataType::kDouble;
  c.Resize(v.size());
  c.doubles = v;
  c.SetAllValid();
  for (size_t r = 0; r < nulls.size(); ++r) {
    if (nulls[r]) c.validity[r / 8] &= static_cast<uint8_t>(~(1u << (r % 8)));
  }
  c.FinishValidity();
  return c;
}

std::optional<ColumnAggregate> DoubleTail(const ColumnVector& values, size_t tail) {
  std::vector<int64_t> times(values.length);
  for (size_t r = 0; r < values.length; ++r) times[r] = static_cast<int64_t>(r);
  ColumnAggregate page(DataType::kDouble);
  page.AddRows(values, times.data());
  ColumnVector head = values;
  head.KeepRange(0, tail + 1);
  return page.WithoutHead(head, times.data(), tail);
}

TEST(ColumnAggregateTest, WithoutHeadLeavesOpenWhatTheHeadCouldHide) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // The head holds the minimum (a counter's first value), the maximum, or a value equal to one.
  EXPECT_FALSE(DoubleTail(Doubles({1, 2, 3, 4}), 1).has_value());
  EXPECT_FALSE(DoubleTail(Doubles({9, 2, 3, 4}), 1).has_value());
  EXPECT_FALSE(DoubleTail(Doubles({3, 2, 3, 1}), 1).has_value());
  // A zero of either sign as the minimum: which one is first decides, and the head has one.
  EXPECT_FALSE(DoubleTail(Doubles({0.0, 5, -0.0, 7}), 1).has_value());
  // The tail's first row is null, or NaN (its min and max would start there).
  EXPECT_FALSE(DoubleTail(Doubles({3, 0, 1, 5}, {false, true}), 1).has_value());
  EXPECT_FALSE(DoubleTail(Doubles({3, nan, 1, 5}), 1).has_value());
  // The head's values outweigh the difference: it would cancel.
  EXPECT_FALSE(DoubleTail(Doubles({1e6, -1e9, 0.5, 1e9}), 1).has_value());
  // Whereas a head strictly inside the extremes answers: min 1, max 9, sum 13, first 3.
  const std::optional<ColumnAggregate> tail = DoubleTail(Doubles({2, 3, 1, 9}), 1);
  ASSERT_TRUE(tail.has_value());
  EXPECT_EQ(tail->count(), 3u);
  EXPECT_EQ(tail->min().d, 1);
  EXPECT_EQ(tail->max().d, 9);
  EXPECT_EQ(tail->first().d, 3);
  EXPECT_EQ(tail->first_time(), 1);
  EXPECT_EQ(tail->last().d, 9);
  EXPECT_EQ(tail->float_sum(), 13);
  // An all-null tail is empty; a head without values leaves the page's aggregate as it is.
  EXPECT_EQ(DoubleTail(Doubles({2, 3, 1, 9}, {false, true, true, true}), 1)->count(), 0u);
  const std::optional<ColumnAggregate> whole = DoubleTail(Doubles({0, 0, 1, 9}, {true, true}), 2);
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(whole->count(), 2u);
  EXPECT_EQ(whole->first().d, 1);
}

}  // namespace
}  // namespace tsread

namespace tsread {
namespace {

// Values near ±DBL_MAX whose sum is finite: the new user's `"sum": "NaN"` though no value is NaN.
TEST(ColumnAggregateTest, SumsOfValuesNearTheDoubleRangeDoNotOverflowOnTheWay) {
  constexpr double kBig = 1.7e308;
  const std::vector<double> v = {kBig, kBig, -kBig, -kBig, kBig, -kBig, 1.5, kBig, kBig, -kBig, -kBig};
  std::vector<int64_t> times(v.size());
  for (size_t r = 0; r < times.size(); ++r) times[r] = static_cast<int64_t>(r);
  const ColumnVector values = Doubles(v);
  ColumnAggregate rows(DataType::kDouble), one_by_one(DataType::kDouble);
  rows.AddRows(values, times.data());
  for (size_t r = 0; r < v.size(); ++r) one_by_one.AddRow(values, r, times[r]);
  EXPECT_EQ(rows.float_sum(), 1.5);
  EXPECT_EQ(one_by_one.float_sum(), 1.5);
  // Across groups: each part's sum lies beyond the double range, their total does not.
  ColumnAggregate up(DataType::kDouble), down(DataType::kDouble);
  up.AddRows(Doubles({kBig, kBig}), times.data());
  down.AddRows(Doubles({-kBig, -kBig, 2.0}), times.data() + 2);
  EXPECT_EQ(up.float_sum(), std::numeric_limits<double>::infinity());  // said outright, never UB
  up.Merge(down);
  EXPECT_EQ(up.float_sum(), 2.0);
  // NaN only where a value is.
  ColumnAggregate nan(DataType::kDouble);
  nan.AddRows(Doubles({kBig, kBig, std::nan(""), -kBig}), times.data());
  EXPECT_TRUE(std::isnan(nan.float_sum()));
  // Statistics whose sum is not finite (the writer's double overflowed) are not believed.
  Statistics s;
  s.type = DataType::kDouble;
  s.count = 4;
  s.float_min = -kBig;
  s.float_max = kBig;
  s.float_sum = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(ColumnAggregate(DataType::kDouble).StatisticsAreExact(s));
  s.float_sum = std::nan("");
  EXPECT_FALSE(ColumnAggregate(DataType::kDouble).StatisticsAreExact(s));
  s.float_sum = 1.5;
  EXPECT_TRUE(ColumnAggregate(DataType::kDouble).StatisticsAreExact(s));
}

}  // namespace
}  // namespace tsread
