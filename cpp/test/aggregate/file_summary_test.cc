// SummarizeFile (what `tsread info --json` prints) against every fixture's summary.json, which
// the Apache Java reader produced.
#include "tsread/aggregate/file_summary.h"

#include <fstream>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/fixtures.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {
namespace {

class FileSummaryFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FileSummaryFixtureTest, MatchesJavaSummary) {
  const std::string stem = GetParam();
  std::ifstream json_in(testing::FixturePath(stem + ".summary.json"));
  ASSERT_TRUE(json_in.good()) << stem;
  const nlohmann::json expected = nlohmann::json::parse(json_in);

  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath(stem + ".tsfile"));
  ASSERT_TRUE(reader.ok()) << reader.status();
  absl::StatusOr<FileSummary> summary = SummarizeFile(**reader);
  ASSERT_TRUE(summary.ok()) << summary.status();

  EXPECT_EQ(summary->version, expected["version"].get<int>());
  const nlohmann::json& tables = expected["tables"];
  ASSERT_EQ(summary->tables.size(), tables.size());
  for (size_t t = 0; t < tables.size(); ++t) {
    const TableSummary& table = summary->tables[t];
    SCOPED_TRACE(table.schema->name);
    EXPECT_EQ(table.schema->name, tables[t]["name"].get<std::string>());
    EXPECT_EQ(table.devices, tables[t]["devices"].get<uint64_t>());
    EXPECT_EQ(table.rows, tables[t]["rows"].get<uint64_t>());
    const nlohmann::json& columns = tables[t]["columns"];
    ASSERT_EQ(table.schema->columns.size(), columns.size());
    for (size_t c = 0; c < columns.size(); ++c) {
      EXPECT_EQ(table.schema->columns[c].name, columns[c]["name"].get<std::string>());
      EXPECT_EQ(ColumnCategoryName(table.schema->columns[c].category), columns[c]["category"].get<std::string>());
      EXPECT_EQ(DataTypeName(table.schema->columns[c].data_type), columns[c]["type"].get<std::string>());
    }
  }
  if (expected.contains("tree")) {
    ASSERT_TRUE(summary->tree.has_value());
    EXPECT_EQ(summary->tree->devices, expected["tree"]["devices"].get<uint64_t>());
    EXPECT_EQ(summary->tree->series, expected["tree"]["series"].get<uint64_t>());
    EXPECT_EQ(summary->tree->points, expected["tree"]["points"].get<uint64_t>());
  } else {
    EXPECT_FALSE(summary->tree.has_value());
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, FileSummaryFixtureTest, ::testing::ValuesIn(testing::FixtureStems()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The time range comes from statistics alone; the CSV's first column gives the true extremes.
TEST(FileSummaryTest, TableTimeRangeMatchesTheRows) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath("table_multi.tsfile"));
  ASSERT_TRUE(reader.ok());
  absl::StatusOr<FileSummary> summary = SummarizeFile(**reader);
  ASSERT_TRUE(summary.ok());
  for (const TableSummary& table : summary->tables) {
    const std::string csv = testing::ReadWholeFile(testing::FixturePath("table_multi." + table.schema->name + ".csv"));
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    size_t pos = csv.find('\n') + 1;
    while (pos < csv.size()) {
      const int64_t t = std::stoll(csv.substr(pos, csv.find(',', pos) - pos));
      lo = std::min(lo, t);
      hi = std::max(hi, t);
      pos = csv.find('\n', pos) + 1;
    }
    EXPECT_EQ(table.start_time, lo) << table.schema->name;
    EXPECT_EQ(table.end_time, hi) << table.schema->name;
  }
}

TEST(FileSummaryTest, FixturesArePresent) { EXPECT_GE(testing::FixtureStems().size(), 20u); }

}  // namespace
}  // namespace tsread
