// SeriesReader against the tree-model fixture CSVs (non-aligned, aligned, V3).
#include "tsread/read/series_reader.h"

#include <algorithm>

#include "testing/fixture_rows.h"
#include "gtest/gtest.h"

namespace tsread {
namespace {

using testing::CsvRow;

class TreeFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TreeFixtureTest, EveryPointMatchesTheJavaReader) {
  const std::string stem = GetParam();
  std::vector<CsvRow> expected = testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath(stem + ".tree.csv")));
  ASSERT_FALSE(expected.empty());
  expected.erase(expected.begin());  // header
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath(stem + ".tsfile"));
  ASSERT_TRUE(reader.ok()) << reader.status();

  struct Device {
    std::string name;
    DeviceLocation location;
  };
  std::vector<Device> devices;
  for (const std::string& index : (*reader)->TreeIndexNames()) {
    absl::StatusOr<DeviceIterator> it = (*reader)->Devices(index);
    ASSERT_TRUE(it.ok());
    while (true) {
      absl::StatusOr<const DeviceEntry*> entry = it->Next();
      ASSERT_TRUE(entry.ok()) << entry.status();
      if (*entry == nullptr) break;
      devices.push_back({(*entry)->id.ToString(), (*entry)->location});
    }
  }
  std::sort(devices.begin(), devices.end(), [](const Device& a, const Device& b) { return a.name < b.name; });
  size_t row = 0;
  for (const Device& device : devices) {
    absl::StatusOr<std::vector<TimeseriesMetadata>> series = (*reader)->ReadTimeseries(device.location);
    ASSERT_TRUE(series.ok()) << series.status();
    std::vector<std::string> names;
    for (const TimeseriesMetadata& tsm : *series) {
      if (!tsm.is_time_column()) names.push_back(tsm.measurement);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      absl::StatusOr<std::unique_ptr<SeriesReader>> points = SeriesReader::Create(**reader, device.name, *series, name);
      ASSERT_TRUE(points.ok()) << points.status();
      while (true) {
        absl::StatusOr<const SeriesBatch*> batch = (*points)->Next();
        ASSERT_TRUE(batch.ok()) << batch.status();
        if (*batch == nullptr) break;
        for (size_t r = 0; r < (*batch)->times.size(); ++r) {
          if (!(*batch)->values.IsValid(r)) continue;
          ASSERT_LT(row, expected.size());
          const CsvRow& e = expected[row++];
          ASSERT_EQ(e[0].text, device.name);
          ASSERT_EQ(e[1].text, name);
          ASSERT_TRUE(testing::FieldEqualsInt(e[2], (*batch)->times[r])) << "row " << row;
          ASSERT_TRUE(testing::CellMatches(e[3], (*batch)->values, r)) << "row " << row;
        }
      }
    }
  }
  EXPECT_EQ(row, expected.size());
}

INSTANTIATE_TEST_SUITE_P(Fixtures, TreeFixtureTest, ::testing::Values("tree_aligned", "tree_nonaligned", "v3_sample"));

TEST(SeriesReaderTest, TimeRangeKeepsOnlyPointsInside) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath("tree_nonaligned.tsfile"));
  ASSERT_TRUE(reader.ok());
  const std::string index = (*reader)->TreeIndexNames().at(0);
  absl::StatusOr<DeviceIterator> it = (*reader)->Devices(index);
  ASSERT_TRUE(it.ok());
  absl::StatusOr<const DeviceEntry*> entry = it->Next();
  ASSERT_TRUE(entry.ok() && *entry != nullptr);
  const std::string name = (*entry)->id.ToString();
  absl::StatusOr<std::vector<TimeseriesMetadata>> series = (*reader)->ReadTimeseries((*entry)->location);
  ASSERT_TRUE(series.ok());
  const TimeseriesMetadata& first = series->front();
  const int64_t mid = first.statistics.start_time + (first.statistics.end_time - first.statistics.start_time) / 2;
  size_t all = 0, inside = 0;
  for (TimeRange range : {TimeRange{}, TimeRange{mid, first.statistics.end_time}}) {
    absl::StatusOr<std::unique_ptr<SeriesReader>> points = SeriesReader::Create(**reader, name, *series, first.measurement, range);
    ASSERT_TRUE(points.ok());
    size_t n = 0;
    while (true) {
      absl::StatusOr<const SeriesBatch*> batch = (*points)->Next();
      ASSERT_TRUE(batch.ok());
      if (*batch == nullptr) break;
      for (int64_t t : (*batch)->times) {
        EXPECT_TRUE(range.Contains(t));
        ++n;
      }
    }
    (range.start == TimeRange{}.start ? all : inside) = n;
  }
  EXPECT_EQ(all, first.statistics.count);
  EXPECT_GT(inside, 0u);
  EXPECT_LT(inside, all);
  EXPECT_EQ(SeriesReader::Create(**reader, name, *series, "~missing").status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace tsread
