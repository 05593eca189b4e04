// AggregateIotdb on one and several threads (each time partition's devices in shares, a builder
// each, merged in order): the figures of the merged rows, written out from the directory's
// description (testing::OverlappingPartitionsRows), per device and for the whole table.
#include "tsread/aggregate/iotdb_aggregate.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "testing/iotdb_data.h"
#include "tsread/read/predicate_text.h"

namespace tsread {
namespace {

// What a group of the rows should say.
struct Expected {
  uint64_t rows = 0, s2_count = 0;
  int64_t s1_sum = 0, first_time = INT64_MAX, last_time = INT64_MIN;
  void Add(int64_t time, int64_t s1, bool has_s2) {
    ++rows;
    s1_sum += s1;
    s2_count += has_s2;
    first_time = std::min(first_time, time);
    last_time = std::max(last_time, time);
  }
};

class IotdbAggregateTest : public testing::DataDirectoryTest {
 protected:
  void SetUp() override {
    DataDirectoryTest::SetUp();
    testing::WriteOverlappingPartitions(root_);
    for (const std::string& row : testing::OverlappingPartitionsRows()) {
      const std::vector<std::string> cells = absl::StrSplit(row, ',');
      int64_t time = 0, s1 = 0;
      ASSERT_TRUE(absl::SimpleAtoi(cells[0], &time) && absl::SimpleAtoi(cells[2], &s1)) << row;
      by_device_["t." + cells[1]].Add(time, s1, !cells[3].empty());
      table_.Add(time, s1, !cells[3].empty());
    }
    auto data = iotdb::IotdbDataset::Open({root_});
    ASSERT_TRUE(data.ok()) << data.status();
    data_ = std::move(*data);
  }

  static void ExpectGroup(const GroupAggregate& g, const Expected& e, const std::string& what) {
    EXPECT_EQ(g.rows, e.rows) << what;
    EXPECT_EQ(g.first_time, e.first_time) << what;
    EXPECT_EQ(g.last_time, e.last_time) << what;
    ASSERT_EQ(g.columns.size(), 2u) << what;  // s1, s2
    EXPECT_EQ(g.columns[0].count(), e.rows) << what;
    EXPECT_EQ(static_cast<int64_t>(g.columns[0].int_sum()), e.s1_sum) << what;
    EXPECT_EQ(g.columns[1].count(), e.s2_count) << what;
  }

  std::map<std::string, Expected> by_device_;
  Expected table_;
  std::unique_ptr<iotdb::IotdbDataset> data_;
};

TEST_F(IotdbAggregateTest, SharesOnThreadsGiveTheMergedRowsFigures) {
  for (int threads : {1, 2, 3, 8}) {
    auto result = AggregateIotdb(*data_, AggregateOptions{}, threads);
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->groups.size(), by_device_.size()) << threads;
    auto expected = by_device_.begin();
    // Devices in the scan's order (a..g) on any number of threads, though b, streamed, is answered
    // from statistics before a's merged rows are read.
    for (const GroupAggregate& g : result->groups) {
      ASSERT_NE(expected, by_device_.end());
      EXPECT_EQ(g.device, expected->first) << threads;
      ExpectGroup(g, expected->second, g.device + " on " + std::to_string(threads) + " threads");
      ++expected;
    }
  }
}

TEST_F(IotdbAggregateTest, ByTableMergesTheSharesGroups) {
  AggregateOptions options;
  options.by = AggregateGroupBy::kTable;
  for (int threads : {1, 2, 3}) {
    auto result = AggregateIotdb(*data_, options, threads);
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->groups.size(), 1u);
    ExpectGroup(result->groups[0], table_, "by table on " + std::to_string(threads) + " threads");
  }
}

TEST_F(IotdbAggregateTest, ValueConditionsCountTheMergedRowsOnThreads) {
  // s1 < 0: the unsequence rows alone (5 times of a, d and g in each partition), replacing what
  // the sequence files held there.
  AggregateOptions options;
  options.by = AggregateGroupBy::kTable;
  auto conditions = ParsePredicates("s1 < 0");
  ASSERT_TRUE(conditions.ok()) << conditions.status();
  options.value_predicates = *conditions;
  for (int threads : {1, 2}) {
    auto result = AggregateIotdb(*data_, options, threads);
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->groups.size(), 1u);
    EXPECT_EQ(result->groups[0].rows, 30u) << threads;
  }
}

}  // namespace
}  // namespace tsread
