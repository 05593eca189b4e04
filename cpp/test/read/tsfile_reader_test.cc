#include "tsread/read/tsfile_reader.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<TsFileReader> OpenFixture(const std::string& name) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath(name));
  EXPECT_TRUE(reader.ok()) << reader.status();
  return reader.ok() ? std::move(*reader) : nullptr;
}

struct VisitedDevice {
  std::string index;
  DeviceId id;
  DeviceLocation location;
};

std::vector<VisitedDevice> AllDevices(const TsFileReader& reader) {
  std::vector<VisitedDevice> all;
  for (const TableIndex& index : reader.metadata().table_index) {
    absl::StatusOr<DeviceIterator> it = reader.Devices(index.name);
    EXPECT_TRUE(it.ok());
    while (true) {
      absl::StatusOr<const DeviceEntry*> entry = it->Next();
      EXPECT_TRUE(entry.ok()) << entry.status();
      if (!entry.ok() || *entry == nullptr) break;
      all.push_back({index.name, (*entry)->id.ToOwned(), (*entry)->location});
    }
  }
  return all;
}

class DeviceLookupTest : public ::testing::TestWithParam<std::string> {};

// Every device the iterator visits is found again by binary search, at the same location, and
// every one of its series by name.
TEST_P(DeviceLookupTest, EveryDeviceAndSeriesIsFoundByLookup) {
  std::unique_ptr<TsFileReader> reader = OpenFixture(GetParam() + ".tsfile");
  ASSERT_NE(reader, nullptr);
  const std::vector<VisitedDevice> devices = AllDevices(*reader);
  ASSERT_FALSE(devices.empty());
  for (const VisitedDevice& device : devices) {
    absl::StatusOr<std::optional<DeviceLocation>> found = reader->FindDevice(device.index, device.id);
    ASSERT_TRUE(found.ok()) << found.status();
    ASSERT_TRUE(found->has_value()) << device.id.ToString();
    EXPECT_EQ((*found)->measurement_root_offset, device.location.measurement_root_offset);
    EXPECT_EQ((*found)->measurement_root_end, device.location.measurement_root_end);
  }
  // Series lookups on a sample of devices (all of them for small files).
  const size_t step = devices.size() > 50 ? devices.size() / 50 : 1;
  for (size_t d = 0; d < devices.size(); d += step) {
    absl::StatusOr<std::vector<TimeseriesMetadata>> series = reader->ReadTimeseries(devices[d].location);
    ASSERT_TRUE(series.ok()) << series.status();
    for (size_t s = 0; s < series->size(); ++s) {
      if (s > 0) {
        EXPECT_LT((*series)[s - 1].measurement, (*series)[s].measurement);
      }
      absl::StatusOr<std::optional<TimeseriesMetadata>> one =
          reader->FindTimeseries(devices[d].location, (*series)[s].measurement);
      ASSERT_TRUE(one.ok()) << one.status();
      ASSERT_TRUE(one->has_value()) << (*series)[s].measurement;
      EXPECT_EQ((*one)->statistics.count, (*series)[s].statistics.count);
      EXPECT_EQ((*one)->chunks.size(), (*series)[s].chunks.size());
    }
    absl::StatusOr<std::optional<TimeseriesMetadata>> missing = reader->FindTimeseries(devices[d].location, "~nope");
    ASSERT_TRUE(missing.ok());
    EXPECT_FALSE(missing->has_value());
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, DeviceLookupTest,
                         ::testing::Values("table_alltypes", "table_multi", "table_many_devices", "table_wide",
                                           "table_wide_d256", "tree_aligned", "tree_nonaligned", "v3_sample"));

TEST(TsFileReaderTest, ManyDevicesUsesATwoLevelIndex) {
  std::unique_ptr<TsFileReader> reader = OpenFixture("table_many_devices.tsfile");
  ASSERT_NE(reader, nullptr);
  const TableIndex* index = reader->metadata().FindIndex("t_many");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->root.type, MetaIndexNodeType::kInternalDevice);
  EXPECT_EQ(AllDevices(*reader).size(), 5000u);
}

TEST(TsFileReaderTest, AbsentDevicesAreNotFound) {
  std::unique_ptr<TsFileReader> reader = OpenFixture("table_many_devices.tsfile");
  ASSERT_NE(reader, nullptr);
  const std::vector<VisitedDevice> devices = AllDevices(*reader);
  // Before the first, after the last, and between two devices.
  std::vector<std::optional<std::string>> before = {"t_many", ""};
  std::vector<std::optional<std::string>> after = {"t_many", "\x7F"};
  std::vector<std::optional<std::string>> between = devices[10].id.segments();
  between.push_back("zzz");
  for (const auto& segments : {before, after, between}) {
    absl::StatusOr<std::optional<DeviceLocation>> found = reader->FindDevice("t_many", DeviceId(segments));
    ASSERT_TRUE(found.ok()) << found.status();
    EXPECT_FALSE(found->has_value());
  }
  absl::StatusOr<std::optional<DeviceLocation>> other_table = reader->FindDevice("nope", devices[0].id);
  ASSERT_TRUE(other_table.ok());
  EXPECT_FALSE(other_table->has_value());
}

TEST(TsFileReaderTest, TablesAndTreeIndexes) {
  std::unique_ptr<TsFileReader> multi = OpenFixture("table_multi.tsfile");
  ASSERT_NE(multi, nullptr);
  ASSERT_EQ(multi->Tables().size(), 3u);
  EXPECT_EQ(multi->Tables()[0]->name, "tbl_a");
  EXPECT_TRUE(multi->TreeIndexNames().empty());
  std::unique_ptr<TsFileReader> v3 = OpenFixture("v3_sample.tsfile");
  ASSERT_NE(v3, nullptr);
  EXPECT_EQ(v3->version(), 3);
  EXPECT_TRUE(v3->Tables().empty());
  EXPECT_EQ(v3->TreeIndexNames(), std::vector<std::string>{""});
}

TEST(TsFileReaderTest, RejectsFilesWithoutTail) {
  const std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_multi.tsfile"));
  ASSERT_FALSE(bytes.empty());
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader =
      TsFileReader::Open(MemoryFileView(std::string_view(bytes).substr(0, bytes.size() - 1)));
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(reader.status().message(), HasSubstr("tail magic"));
}

TEST(TsFileReaderTest, RejectsUnsupportedVersions) {
  std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_multi.tsfile"));
  bytes[6] = '0';  // a pre-V3 ASCII version
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace tsread
