// The in-place readers that a scan of many small devices relies on (issue 48): series metadata
// read with TsFileReader::ReadTimeseriesInto into one vector, device after device, and chunks
// loaded with LoadChunkInto into one ChunkData, chunk after chunk, equal what fresh objects hold
// (ForEachTimeseries, LoadChunk) on every fixture, in index order and backwards (so that a
// reused object is larger or smaller than what it receives).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "tsread/read/chunk_data.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {
namespace {

void ExpectSameStatistics(const Statistics& a, const Statistics& b, const std::string& where) {
  EXPECT_EQ(a.type, b.type) << where;
  EXPECT_EQ(a.count, b.count) << where;
  EXPECT_EQ(a.start_time, b.start_time) << where;
  EXPECT_EQ(a.end_time, b.end_time) << where;
  EXPECT_EQ(a.int_min, b.int_min) << where;
  EXPECT_EQ(a.int_max, b.int_max) << where;
  EXPECT_EQ(a.int_first, b.int_first) << where;
  EXPECT_EQ(a.int_last, b.int_last) << where;
  EXPECT_EQ(a.int_sum, b.int_sum) << where;
  // Bit patterns: NaN statistics compare equal to themselves.
  EXPECT_EQ(std::bit_cast<uint64_t>(a.float_min), std::bit_cast<uint64_t>(b.float_min)) << where;
  EXPECT_EQ(std::bit_cast<uint64_t>(a.float_max), std::bit_cast<uint64_t>(b.float_max)) << where;
  EXPECT_EQ(std::bit_cast<uint64_t>(a.float_first), std::bit_cast<uint64_t>(b.float_first)) << where;
  EXPECT_EQ(std::bit_cast<uint64_t>(a.float_last), std::bit_cast<uint64_t>(b.float_last)) << where;
  EXPECT_EQ(std::bit_cast<uint64_t>(a.float_sum), std::bit_cast<uint64_t>(b.float_sum)) << where;
  EXPECT_EQ(a.bool_first, b.bool_first) << where;
  EXPECT_EQ(a.bool_last, b.bool_last) << where;
  EXPECT_EQ(a.bin_first, b.bin_first) << where;
  EXPECT_EQ(a.bin_last, b.bin_last) << where;
  EXPECT_EQ(a.bin_min, b.bin_min) << where;
  EXPECT_EQ(a.bin_max, b.bin_max) << where;
}

void ExpectSameSeries(const TimeseriesMetadata& a, const TimeseriesMetadata& b, const std::string& where) {
  EXPECT_EQ(a.type_byte, b.type_byte) << where;
  EXPECT_EQ(a.measurement, b.measurement) << where;
  EXPECT_EQ(a.data_type, b.data_type) << where;
  ExpectSameStatistics(a.statistics, b.statistics, where);
  ASSERT_EQ(a.chunks.size(), b.chunks.size()) << where;
  for (size_t c = 0; c < a.chunks.size(); ++c) {
    EXPECT_EQ(a.chunks[c].offset, b.chunks[c].offset) << where;
    ExpectSameStatistics(a.chunks[c].statistics, b.chunks[c].statistics, where + " chunk " + std::to_string(c));
  }
}

// Every device location of every index of the file, in index order.
std::vector<DeviceLocation> AllDevices(const TsFileReader& reader) {
  std::vector<DeviceLocation> out;
  for (const TableIndex& index : reader.metadata().table_index) {
    absl::StatusOr<DeviceIterator> it = reader.Devices(index.name);
    EXPECT_TRUE(it.ok()) << it.status();
    while (it.ok()) {
      absl::StatusOr<const DeviceEntry*> entry = it->Next();
      EXPECT_TRUE(entry.ok()) << entry.status();
      if (!entry.ok() || *entry == nullptr) break;
      out.push_back((*entry)->location);
    }
  }
  return out;
}

std::vector<TimeseriesMetadata> FreshSeries(const TsFileReader& reader, const DeviceLocation& device,
                                            const TsFileReader::MeasurementFilter* wanted = nullptr) {
  std::vector<TimeseriesMetadata> out;
  EXPECT_TRUE(reader
                  .ForEachTimeseries(
                      device,
                      [&](TimeseriesMetadata&& tsm) {
                        out.push_back(std::move(tsm));
                        return absl::OkStatus();
                      },
                      nullptr, wanted)
                  .ok());
  return out;
}

class ReusedObjectsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath(GetParam()));
    ASSERT_TRUE(reader.ok()) << reader.status();
    reader_ = std::move(*reader);
    devices_ = AllDevices(*reader_);
    ASSERT_FALSE(devices_.empty());
  }
  std::unique_ptr<TsFileReader> reader_;
  std::vector<DeviceLocation> devices_;
};

TEST_P(ReusedObjectsTest, SeriesReadIntoOneVectorEqualFreshOnes) {
  std::vector<DeviceLocation> order = devices_;
  order.insert(order.end(), devices_.rbegin(), devices_.rend());
  std::vector<TimeseriesMetadata> reused;
  ReadAhead ahead;
  // Every other device only its time column and the names from "s" on: a subset, then all again.
  const TsFileReader::MeasurementFilter some = [](std::string_view m) { return m.empty() || m >= "s"; };
  for (size_t i = 0; i < order.size(); ++i) {
    const TsFileReader::MeasurementFilter* wanted = i % 2 == 1 ? &some : nullptr;
    ASSERT_TRUE(reader_->ReadTimeseriesInto(order[i], reused, i % 3 == 0 ? &ahead : nullptr, wanted).ok());
    const std::vector<TimeseriesMetadata> fresh = FreshSeries(*reader_, order[i], wanted);
    ASSERT_EQ(reused.size(), fresh.size()) << i;
    for (size_t s = 0; s < fresh.size(); ++s) ExpectSameSeries(reused[s], fresh[s], GetParam() + " " + fresh[s].measurement);
  }
}

TEST_P(ReusedObjectsTest, ChunksLoadedIntoOneObjectEqualFreshOnes) {
  std::vector<int64_t> offsets;
  for (const DeviceLocation& device : devices_) {
    for (const TimeseriesMetadata& tsm : FreshSeries(*reader_, device)) {
      for (const ChunkMetadata& chunk : tsm.chunks) offsets.push_back(chunk.offset);
    }
  }
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  std::vector<int64_t> order = offsets;
  order.insert(order.end(), offsets.rbegin(), offsets.rend());
  ChunkData reused;
  ReadAhead ahead;
  for (size_t i = 0; i < order.size(); ++i) {
    ASSERT_TRUE(LoadChunkInto(*reader_, order[i], i < offsets.size() ? &ahead : nullptr, nullptr, reused).ok());
    absl::StatusOr<ChunkData> fresh = LoadChunk(*reader_, order[i]);
    ASSERT_TRUE(fresh.ok()) << fresh.status();
    const std::string where = GetParam() + " chunk at " + std::to_string(order[i]);
    EXPECT_EQ(reused.header.offset, fresh->header.offset) << where;
    EXPECT_EQ(reused.header.header_size, fresh->header.header_size) << where;
    EXPECT_EQ(reused.header.marker, fresh->header.marker) << where;
    EXPECT_EQ(reused.header.measurement, fresh->header.measurement) << where;
    EXPECT_EQ(reused.header.data_size, fresh->header.data_size) << where;
    EXPECT_EQ(reused.header.data_type, fresh->header.data_type) << where;
    EXPECT_EQ(reused.header.encoding_byte, fresh->header.encoding_byte) << where;
    EXPECT_EQ(reused.bytes.bytes(), fresh->bytes.bytes()) << where;
    // The header's name views the chunk's own bytes (kept with the chunk).
    EXPECT_GE(reused.header.measurement.data(), reused.bytes.data()) << where;
    EXPECT_LE(reused.header.measurement.data() + reused.header.measurement.size(),
              reused.bytes.data() + reused.bytes.size()) << where;
    ASSERT_EQ(reused.pages.size(), fresh->pages.size()) << where;
    for (size_t p = 0; p < fresh->pages.size(); ++p) {
      const PageHeader& a = reused.pages[p].header;
      const PageHeader& b = fresh->pages[p].header;
      EXPECT_EQ(a.offset, b.offset) << where;
      EXPECT_EQ(a.header_size, b.header_size) << where;
      EXPECT_EQ(a.uncompressed_size, b.uncompressed_size) << where;
      EXPECT_EQ(a.compressed_size, b.compressed_size) << where;
      ASSERT_EQ(a.statistics.has_value(), b.statistics.has_value()) << where;
      if (a.statistics.has_value()) ExpectSameStatistics(*a.statistics, *b.statistics, where);
      EXPECT_EQ(reused.pages[p].body, fresh->pages[p].body) << where;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ReusedObjectsTest,
                         ::testing::Values("table_alltypes.tsfile", "table_multi.tsfile", "table_many_devices.tsfile",
                                           "table_wide.tsfile", "tree_aligned.tsfile", "tree_nonaligned.tsfile",
                                           "tree_depths.tsfile", "v3_sample.tsfile", "table_comp_UNCOMPRESSED.tsfile"),
                         [](const auto& info) {
                           std::string name = info.param.substr(0, info.param.find('.'));
                           return name;
                         });

}  // namespace
}  // namespace tsread
