// AggregateTree against the tree fixtures' CSVs (every non-null point, read back by the Java
// reader): per series the count, first/last times and values, min, max and sum the test computes
// from the CSV rows, over the whole file and over a window; statistics answer where they can.
#include "tsread/aggregate/tree_aggregate.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "testing/csv.h"
#include "testing/fixtures.h"

namespace tsread {
namespace {

// One series' points from the CSV, in time order: (time, field).
using Points = std::vector<std::pair<int64_t, testing::CsvField>>;

std::map<std::pair<std::string, std::string>, Points> CsvSeries(const std::string& stem, const TimeRange& range) {
  std::map<std::pair<std::string, std::string>, Points> out;
  const std::vector<testing::CsvRow> rows = testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath(stem + ".tree.csv")));
  for (size_t r = 1; r < rows.size(); ++r) {
    const int64_t t = std::stoll(rows[r][2].text);
    if (range.Contains(t)) out[{rows[r][0].text, rows[r][1].text}].emplace_back(t, rows[r][3]);
  }
  return out;
}

// Whether a value of `type` is the CSV field (cli-contract.md's forms).
::testing::AssertionResult Same(DataType type, const AggregateValue& v, const testing::CsvField& field) {
  const std::string& text = field.text;
  bool same = false;
  switch (type) {
    case DataType::kBoolean: same = (v.i != 0) == (text == "true"); break;
    case DataType::kFloat: same = static_cast<float>(v.d) == std::strtof(text.c_str(), nullptr); break;
    case DataType::kDouble: same = v.d == std::strtod(text.c_str(), nullptr); break;
    case DataType::kText:
    case DataType::kString: same = v.s == text; break;
    case DataType::kBlob: return ::testing::AssertionSuccess();  // hex: compared by the CLI test
    default: same = v.i == std::stoll(text); break;
  }
  if (same) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "CSV " << text << ", got i=" << v.i << " d=" << v.d << " s=" << v.s;
}

void ExpectSeriesEqualTheCsv(const std::string& stem, const TimeRange& range, bool expect_statistics) {
  SCOPED_TRACE(stem);
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath(stem + ".tsfile")}).value();
  TreeAggregateOptions options;
  options.time_range = range;
  absl::StatusOr<TreeAggregate> got = AggregateTree(*dataset, options);
  ASSERT_TRUE(got.ok()) << got.status();
  const auto want = CsvSeries(stem, range);
  ASSERT_EQ(got->series.size(), want.size());
  size_t i = 0;
  for (const auto& [key, points] : want) {
    const SeriesAggregate& s = got->series[i++];
    SCOPED_TRACE(key.first + " " + key.second);
    ASSERT_EQ(s.device, key.first);
    ASSERT_EQ(s.measurement, key.second);
    const ColumnAggregate& c = s.values;
    ASSERT_EQ(c.count(), points.size());
    EXPECT_EQ(c.first_time(), points.front().first);
    EXPECT_EQ(c.last_time(), points.back().first);
    EXPECT_TRUE(Same(c.type(), c.first(), points.front().second));
    EXPECT_TRUE(Same(c.type(), c.last(), points.back().second));
    if (IsIntegerType(c.type()) && c.type() != DataType::kBoolean) {
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      __int128 sum = 0;
      for (const auto& p : points) {
        const int64_t v = std::stoll(p.second.text);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum += v;
      }
      EXPECT_EQ(c.min().i, lo);
      EXPECT_EQ(c.max().i, hi);
      if (c.type() == DataType::kInt32 || c.type() == DataType::kInt64) EXPECT_TRUE(c.int_sum() == sum);
    }
    if (IsFloatType(c.type())) {
      double lo = INFINITY, hi = -INFINITY, sum = 0, magnitude = 0;
      for (const auto& p : points) {
        const double v = c.type() == DataType::kFloat ? std::strtof(p.second.text.c_str(), nullptr)
                                                      : std::strtod(p.second.text.c_str(), nullptr);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum += v;
        magnitude += std::fabs(v);
      }
      EXPECT_EQ(c.min().d, lo);
      EXPECT_EQ(c.max().d, hi);
      EXPECT_NEAR(c.float_sum(), sum, 1e-9 * magnitude + 1e-9);  // sums round (column_aggregate.h)
    }
  }
  if (expect_statistics) EXPECT_GT(got->work.series_from_statistics, 0u);
}

TEST(TreeAggregateTest, EverySeriesEqualsTheCsv) {
  for (const char* stem : {"tree_aligned", "tree_nonaligned", "tree_depths", "v3_sample"}) {
    ExpectSeriesEqualTheCsv(stem, TimeRange{}, false);
  }
}

TEST(TreeAggregateTest, AWindowCutsSeriesAndTheirPointsAreDecoded) {
  for (const char* stem : {"tree_aligned", "tree_nonaligned", "tree_depths"}) {
    const auto all = CsvSeries(stem, TimeRange{});
    ASSERT_FALSE(all.empty());
    const Points& first = all.begin()->second;
    // A window through the middle of the first series: its ends are cut off.
    const TimeRange window{first[first.size() / 3].first, first[2 * first.size() / 3].first};
    ExpectSeriesEqualTheCsv(stem, window, false);
  }
}

TEST(TreeAggregateTest, StatisticsAnswerWholeSeriesAndSelectionsPickSeries) {
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath("tree_nonaligned.tsfile")}).value();
  TreeAggregate whole = AggregateTree(*dataset, {}).value();
  EXPECT_GT(whole.work.series_from_statistics, 0u);
  // One device and one measurement: that series alone, the same.
  TreeAggregateOptions one;
  one.devices = {whole.series.front().device};
  one.measurements = {whole.series.front().measurement};
  TreeAggregate selected = AggregateTree(*dataset, one).value();
  ASSERT_EQ(selected.series.size(), 1u);
  EXPECT_EQ(selected.series[0].values.count(), whole.series.front().values.count());
}

TEST(TreeAggregateTest, TableModelDataIsAnErrorNamingItsTables) {
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath("table_alltypes.tsfile")}).value();
  absl::StatusOr<TreeAggregate> got = AggregateTree(*dataset, {});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(got.status().message()).find("t_all"), std::string::npos) << got.status();
}

}  // namespace
}  // namespace tsread
