#include "tsread/read/tsfile_reader.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "tsread/read/series_reader.h"
#include "tsread/read/table_scanner.h"

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

// ---- Files that change while they are read (issue 13) ----

// Appends the bytes of a batch's rows to `out`, so that two reads can be compared whole.
void AppendBatch(const std::string& device, const std::vector<int64_t>& times, const std::vector<ColumnVector>& columns,
                 std::string& out) {
  auto append = [&out](const auto& values) {
    out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(values[0]));
  };
  out += device;
  append(times);
  for (const ColumnVector& column : columns) {
    append(column.validity);
    append(column.bools);
    append(column.int32s);
    append(column.int64s);
    append(column.floats);
    append(column.doubles);
    append(column.offsets);
    append(column.bytes);
  }
}

// Every value of the file — every table scanned with `threads` workers (ordered), every
// tree-model series — as one string; or the first error.
absl::StatusOr<std::string> ReadAllValues(const TsFileReader& reader, int threads) {
  std::string out;
  for (const TableSchema* table : reader.Tables()) {
    ScanOptions options;
    options.table = table->name;
    options.num_threads = threads;
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(reader, options);
    if (!scanner.ok()) return scanner.status();
    absl::Status s = (*scanner)->Scan([&](int, const TableBatch& batch) {
      AppendBatch(batch.device->ToString(), batch.times, batch.columns, out);
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
  }
  for (const std::string& index : reader.TreeIndexNames()) {
    absl::StatusOr<DeviceIterator> devices = reader.Devices(index);
    if (!devices.ok()) return devices.status();
    while (true) {
      absl::StatusOr<const DeviceEntry*> device = devices->Next();
      if (!device.ok()) return device.status();
      if (*device == nullptr) break;
      const std::string name = (*device)->id.ToString();
      absl::StatusOr<std::vector<TimeseriesMetadata>> series = reader.ReadTimeseries((*device)->location);
      if (!series.ok()) return series.status();
      for (const TimeseriesMetadata& tsm : *series) {
        if (tsm.is_time_column()) continue;
        absl::StatusOr<std::unique_ptr<SeriesReader>> points =
            SeriesReader::Create(reader, name, *series, tsm.measurement);
        if (!points.ok()) return points.status();
        while (true) {
          absl::StatusOr<const SeriesBatch*> batch = (*points)->Next();
          if (!batch.ok()) return batch.status();
          if (*batch == nullptr) break;
          AppendBatch(name + "." + tsm.measurement, (*batch)->times, {(*batch)->values}, out);
        }
      }
    }
  }
  return out;
}

// A private copy of a fixture that the test may truncate or overwrite.
class FileCopy {
 public:
  explicit FileCopy(const std::string& fixture)
      : path_(::testing::TempDir() + "/tsread_changing_" + std::to_string(::getpid()) + "_" + fixture),
        bytes_(testing::ReadWholeFile(testing::FixturePath(fixture))) {
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << bytes_;
  }
  ~FileCopy() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }
  const std::string& bytes() const { return bytes_; }

  void Truncate(uint64_t size) const { ASSERT_EQ(::truncate(path_.c_str(), static_cast<off_t>(size)), 0); }
  void Overwrite(uint64_t offset, const std::string& bytes) const {
    std::fstream f(path_, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(static_cast<std::streamoff>(offset));
    f << bytes;
    ASSERT_TRUE(f.good());
  }
  void Append(const std::string& bytes) const { std::ofstream(path_, std::ios::binary | std::ios::app) << bytes; }

 private:
  std::string path_;
  std::string bytes_;
};

std::string Garbage(size_t n, uint32_t seed) {
  std::mt19937 random(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(random());
  return s;
}

class ChangingFileTest : public ::testing::TestWithParam<std::string> {
 protected:
  // What a read of the unchanged fixture gives.
  std::string Expected() {
    std::unique_ptr<TsFileReader> reader = OpenFixture(GetParam());
    if (reader == nullptr) return "";
    absl::StatusOr<std::string> values = ReadAllValues(*reader, 1);
    EXPECT_TRUE(values.ok()) << values.status();
    return values.value_or("");
  }
};

// Truncated after Open, before the scan: inside the data section, inside the index, to 0. The
// scan must end with an error naming the file, not a signal (which is what reading a mapped file
// did) nor rows read from a shorter file.
TEST_P(ChangingFileTest, TruncatedWhileOpenIsAnError) {
  for (int threads : {1, 2}) {
    for (const char* where : {"data", "index", "empty"}) {
      FileCopy copy(GetParam());
      absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(copy.path());
      ASSERT_TRUE(reader.ok()) << reader.status();
      const uint64_t meta_offset = (*reader)->metadata().meta_offset;
      const uint64_t index_end = (*reader)->layout().metadata_offset;
      const std::string w = where;
      const uint64_t size = w == "data" ? meta_offset / 2 : w == "index" ? (meta_offset + index_end) / 2 : 0;
      copy.Truncate(size);
      absl::StatusOr<std::string> values = ReadAllValues(**reader, threads);
      ASSERT_FALSE(values.ok()) << where << " " << threads << " threads: truncated to " << size;
      EXPECT_EQ(values.status().code(), absl::StatusCode::kUnavailable) << values.status();
      EXPECT_THAT(values.status().message(), HasSubstr(copy.path()));
      EXPECT_THAT(values.status().message(), HasSubstr("shrank while being read"));
    }
  }
}

// Rewritten in place with garbage after Open: an error, or — where the garbage missed what the
// scan reads — the right values; never a crash.
TEST_P(ChangingFileTest, OverwrittenWhileOpenIsAnErrorOrCorrect) {
  const std::string expected = Expected();
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    FileCopy copy(GetParam());
    absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(copy.path());
    ASSERT_TRUE(reader.ok()) << reader.status();
    const uint64_t index_end = (*reader)->layout().metadata_offset;
    // Odd seeds hit the data section, even ones anywhere before the metadata read at Open.
    std::mt19937 random(seed);
    const uint64_t region = seed % 2 == 1 ? (*reader)->metadata().meta_offset : index_end;
    const uint64_t offset = 7 + random() % (region - 7);
    copy.Overwrite(offset, Garbage(std::min<uint64_t>(4096, index_end - offset), seed));
    absl::StatusOr<std::string> values = ReadAllValues(**reader, 1 + seed % 2);
    if (values.ok()) {
      EXPECT_TRUE(*values == expected) << "seed " << seed << ": wrong values, no error";
    }
  }
  // The whole file before the metadata overwritten: the scan cannot succeed.
  FileCopy copy(GetParam());
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(copy.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  copy.Overwrite(0, Garbage((*reader)->layout().metadata_offset, 99));
  EXPECT_FALSE(ReadAllValues(**reader, 2).ok());
}

// Rewritten in place with the same bytes, or extended: the right values.
TEST_P(ChangingFileTest, RewrittenIdenticallyOrExtendedReadsCorrectly) {
  const std::string expected = Expected();
  ASSERT_FALSE(expected.empty());
  FileCopy copy(GetParam());
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(copy.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  copy.Overwrite(0, copy.bytes());
  copy.Append(Garbage(1 << 20, 7));
  for (int threads : {1, 2}) {
    absl::StatusOr<std::string> values = ReadAllValues(**reader, threads);
    ASSERT_TRUE(values.ok()) << values.status();
    EXPECT_TRUE(*values == expected) << threads << " threads";
  }
}

// The same file mapped (FileAccess::kMap, the opt-in) reads the same values.
TEST_P(ChangingFileTest, MappedAccessReadsTheSameValues) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader =
      TsFileReader::Open(testing::FixturePath(GetParam()), FileAccess::kMap);
  ASSERT_TRUE(reader.ok()) << reader.status();
  absl::StatusOr<std::string> values = ReadAllValues(**reader, 2);
  ASSERT_TRUE(values.ok()) << values.status();
  EXPECT_TRUE(*values == Expected());
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ChangingFileTest,
                         ::testing::Values("table_multi.tsfile", "table_alltypes.tsfile", "table_many_devices.tsfile",
                                           "tree_nonaligned.tsfile", "tree_aligned.tsfile", "v3_sample.tsfile"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param.substr(0, info.param.find('.'));
                         });

TEST(TsFileReaderTest, SpecialFilesFailAtOnce) {
  for (const char* path : {"/dev/null", "/dev/zero"}) {
    absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(path);
    EXPECT_EQ(reader.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(reader.status().message(), HasSubstr(std::string(path) + ": not a regular file (character device)"));
  }
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(::testing::TempDir());
  EXPECT_THAT(reader.status().message(), HasSubstr("not a regular file (directory)"));
}

}  // namespace
}  // namespace tsread
