// Tree-model points of files as written (dataset/tree_points.h): the series listed and the points
// scanned against the tree fixtures' summaries and CSVs, across files, and the device selection.
#include "tsread/dataset/tree_points.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/csv.h"
#include "testing/fixtures.h"

namespace tsread {
namespace {

nlohmann::json TreeSummary(const std::string& stem) {
  return nlohmann::json::parse(testing::ReadWholeFile(testing::FixturePath(stem + ".summary.json")))["tree"];
}

// The CSV's points without its header.
std::vector<testing::CsvRow> CsvPoints(const std::string& stem) {
  std::vector<testing::CsvRow> rows = testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath(stem + ".tree.csv")));
  rows.erase(rows.begin());
  return rows;
}

TEST(TreePointsTest, DevicesSelectExactlyOrBelowAPrefix) {
  EXPECT_TRUE(TreeDeviceSelected({}, "root.sg.d1"));
  EXPECT_TRUE(TreeDeviceSelected({"root.sg.d1"}, "root.sg.d1"));
  EXPECT_TRUE(TreeDeviceSelected({"root.sg"}, "root.sg.d1"));
  EXPECT_FALSE(TreeDeviceSelected({"root.sg"}, "root.sgx.d1"));
  EXPECT_FALSE(TreeDeviceSelected({"root.sg.d1"}, "root.sg"));
}

// Two files in one dataset: file after file, each in the CSV's order (device, measurement, time),
// every non-null point once; the series as many as the summaries count.
TEST(TreePointsTest, ADatasetsPointsAreEachFilesCsvInTurn) {
  const std::vector<std::string> stems = {"tree_nonaligned", "tree_aligned"};
  std::vector<std::string> paths;
  std::vector<testing::CsvRow> expected;
  size_t series_count = 0;
  for (const std::string& stem : stems) {
    paths.push_back(testing::FixturePath(stem + ".tsfile"));
    for (testing::CsvRow& row : CsvPoints(stem)) expected.push_back(std::move(row));
    series_count += TreeSummary(stem)["series"].get<size_t>();
  }
  std::unique_ptr<Dataset> dataset = Dataset::OpenPaths(paths).value();
  ASSERT_TRUE(MayHoldTreeModel(*dataset));
  absl::StatusOr<std::vector<TreeSeriesInfo>> series = TreeSeriesOf(*dataset, {});
  ASSERT_TRUE(series.ok()) << series.status();
  EXPECT_EQ(series->size(), series_count);
  for (const TreeSeriesInfo& s : *series) EXPECT_NE(s.type, DataType::kVector) << s.device << " " << s.measurement;

  size_t row = 0;
  absl::Status status = ScanTreePoints(*dataset, {}, [&](std::string_view device, std::string_view measurement,
                                                         const std::vector<int64_t>& times, const ColumnVector& values,
                                                         size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      if (!values.IsValid(r)) continue;
      if (row >= expected.size()) return absl::InternalError("more points than the CSVs");
      EXPECT_EQ(device, expected[row][0].text) << "point " << row;
      EXPECT_EQ(measurement, expected[row][1].text) << "point " << row;
      EXPECT_EQ(std::to_string(times[r]), expected[row][2].text) << "point " << row;
      ++row;
    }
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(row, expected.size());
}

TEST(TreePointsTest, TheSelectionLimitsSeriesAndPoints) {
  const std::vector<testing::CsvRow> rows = CsvPoints("tree_depths");
  const std::string device = rows[0][0].text;
  const std::string measurement = rows[0][1].text;
  const int64_t t = std::stoll(rows[0][2].text);
  size_t expected = 0;
  for (const testing::CsvRow& r : rows) expected += r[0].text == device && r[1].text == measurement && std::stoll(r[2].text) >= t + 1;
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath("tree_depths.tsfile")}).value();
  TreeScanOptions options;
  options.select_device = [&](std::string_view d) { return d == device; };
  options.measurements = {measurement};
  options.time_range.start = t + 1;
  EXPECT_EQ(TreeSeriesOf(*dataset, options).value().size(), 1u);
  size_t points = 0;
  ASSERT_TRUE(ScanTreePoints(*dataset, options, [&](std::string_view d, std::string_view m, const std::vector<int64_t>& times,
                                                    const ColumnVector& values, size_t begin, size_t end) {
                EXPECT_EQ(d, device);
                EXPECT_EQ(m, measurement);
                for (size_t r = begin; r < end; ++r) {
                  EXPECT_GE(times[r], t + 1);
                  points += values.IsValid(r);
                }
                return absl::OkStatus();
              }).ok());
  EXPECT_EQ(points, expected);
}

TEST(TreePointsTest, TableFilesHoldNoTreeModelAndTheConsumersErrorsPassUnchanged) {
  std::unique_ptr<Dataset> tables = Dataset::Open({testing::FixturePath("table_multi.tsfile")}).value();
  EXPECT_FALSE(MayHoldTreeModel(*tables));
  EXPECT_TRUE(TreeSeriesOf(*tables, {}).value().empty());

  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath("tree_aligned.tsfile")}).value();
  absl::Status status = ScanTreePoints(*dataset, {}, [](auto&&...) { return absl::CancelledError("enough"); });
  EXPECT_EQ(status, absl::CancelledError("enough"));
}

}  // namespace
}  // namespace tsread
