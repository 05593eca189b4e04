// SalvageDataSection on every reference fixture cut at chunk-group boundaries (and one byte after
// them), inside group headers, chunk headers and page bodies, inside the index and the tail: what
// it keeps must be what the rule keeps, computed from the sealed original's own index
// (testing/chunk_group_layout.h). The sealed copies and their values are in
// check/sealed_copy_test.cc.
#include "tsread/check/salvage.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/chunk_group_layout.h"
#include "testing/fixtures.h"
#include "testing/test_mode.h"
#include "tsread/io/random_access_file.h"
#include "tsread/read/tsfile_reader.h"
#include "tsread/write/byte_appender.h"
#include "tsread/write/gorilla_encoder.h"

namespace tsread {
namespace {

using testing::FullMode;
using testing::SanitizerBuild;

// Which group boundaries to cut at: all of them for files of a few dozen groups (and in full
// mode), else evenly spaced ones plus the last few, fewer in files over 100 KB and in sanitizer
// builds (each cut decodes every group before it), so the sweep stays within the CI budget.
std::vector<size_t> BoundaryGroups(size_t groups, uint64_t file_size) {
  std::set<size_t> picked;
  size_t limit = file_size > (uint64_t{1} << 20) ? 8 : 24;
  if (SanitizerBuild()) limit = file_size > 100000 ? 3 : 8;
  if (FullMode()) limit = groups;
  if (groups <= limit) {
    for (size_t g = 0; g < groups; ++g) picked.insert(g);
  } else {
    for (size_t i = 0; i < limit; ++i) picked.insert(groups * i / limit);
    const size_t last = SanitizerBuild() ? 1 : 3;
    for (size_t g = groups - std::min(groups, last); g < groups; ++g) picked.insert(g);
  }
  return {picked.begin(), picked.end()};
}

// Prefix lengths: each picked group's start and one byte after it, a byte inside its group
// header (device id), its first chunk header and its first page body, and around the separator,
// inside the index, inside the tail, and the whole file.
std::vector<uint64_t> CutLengths(const testing::ChunkGroupLayout& layout) {
  std::set<uint64_t> cuts;
  for (size_t g : BoundaryGroups(layout.groups.size(), layout.size)) {
    const testing::GroupLayout& group = layout.groups[g];
    cuts.insert(group.offset);
    cuts.insert(group.offset + 1);
    if (group.first_page_body != 0) cuts.insert(group.first_page_body + 1);
    if (SanitizerBuild() && !FullMode()) continue;
    cuts.insert(group.offset + 2);
    if (group.first_chunk != 0) cuts.insert(group.first_chunk + 3);
    cuts.insert((group.offset + layout.MarkerAfter(g)) / 2);
  }
  cuts.insert(layout.separator);
  cuts.insert(layout.separator + 1);
  cuts.insert(layout.separator + (layout.size - layout.separator) / 2);
  cuts.insert(layout.size - 3);  // inside the tail magic
  cuts.insert(layout.size);
  cuts.insert(7);
  return {cuts.begin(), cuts.end()};
}

class SalvageFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SalvageFixtureTest, KeepsExactlyTheGroupsTheRuleKeepsAtEveryCut) {
  const std::string bytes = testing::ReadWholeFile(testing::FixturePath(GetParam() + ".tsfile"));
  ASSERT_FALSE(bytes.empty());
  absl::StatusOr<std::unique_ptr<TsFileReader>> sealed = TsFileReader::Open(MemoryFileView(bytes));
  ASSERT_TRUE(sealed.ok()) << sealed.status();
  absl::StatusOr<testing::ChunkGroupLayout> layout = testing::LayoutOf(**sealed);
  ASSERT_TRUE(layout.ok()) << layout.status();
  ASSERT_FALSE(layout->groups.empty());
  for (uint64_t length : CutLengths(*layout)) {
    SCOPED_TRACE(::testing::Message() << GetParam() << " cut at " << length << " of " << bytes.size());
    const std::string prefix = bytes.substr(0, length);  // exact-size copy: ASan sees overreads
    absl::StatusOr<SalvageReport> report = SalvageDataSection(*MemoryFileView(prefix));
    ASSERT_TRUE(report.ok()) << report.status();
    const size_t kept = layout->KeptGroups(length);
    EXPECT_EQ(report->groups_kept, kept);
    EXPECT_EQ(report->sealed, length == bytes.size());
    const uint64_t end = kept == 0 ? 7 : layout->MarkerAfter(kept - 1);
    EXPECT_EQ(report->data_end, end);
    EXPECT_EQ(report->stop_offset, kept < layout->groups.size() ? layout->groups[kept].offset : layout->separator);
    EXPECT_FALSE(report->stop_reason.empty());

    std::map<std::string, uint64_t> rows, points;
    for (const SalvagedDevice& device : report->devices) {
      if (device.aligned) rows[device.id.ToString()] += device.rows;
      for (const SalvagedSeries& series : device.series) points[device.id.ToString() + "/" + series.name] += series.points;
    }
    std::map<std::string, uint64_t> expected_rows;
    for (const auto& [device, n] : layout->RowsOfFirst(kept)) {
      if (n > 0) expected_rows[device] = n;
    }
    std::erase_if(rows, [](const auto& entry) { return entry.second == 0; });
    EXPECT_EQ(rows, expected_rows);
    EXPECT_EQ(points, layout->PointsOfFirst(kept));
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SalvageFixtureTest, ::testing::ValuesIn(testing::FixtureStems()),
                         [](const auto& info) { return info.param; });

// The stop reasons name what happened.
TEST(SalvageTest, SaysWhyTheWalkStopped) {
  const std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_comp_LZ4.tsfile"));
  absl::StatusOr<std::unique_ptr<TsFileReader>> sealed = TsFileReader::Open(MemoryFileView(bytes));
  ASSERT_TRUE(sealed.ok());
  absl::StatusOr<testing::ChunkGroupLayout> layout = testing::LayoutOf(**sealed);
  ASSERT_TRUE(layout.ok());
  const uint64_t second = layout->groups[1].offset;

  // The last complete group ends the file: not kept.
  absl::StatusOr<SalvageReport> report = SalvageDataSection(*MemoryFile(bytes.substr(0, second)));
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->groups_kept, 0u);
  EXPECT_NE(report->stop_reason.find("last thing in the file"), std::string::npos) << report->stop_reason;

  // A truncated page: the group is not kept, the reason names the offset.
  report = SalvageDataSection(*MemoryFile(bytes.substr(0, layout->groups[1].first_page_body + 1)));
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->groups_kept, 1u);
  EXPECT_EQ(report->stop_offset, second);
  EXPECT_NE(report->stop_reason.find("is not kept"), std::string::npos) << report->stop_reason;

  // Garbage where the next marker should be: the group before it is not kept either.
  std::string garbage = bytes.substr(0, second) + std::string(64, '\x7f');
  report = SalvageDataSection(*MemoryFile(garbage));
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->groups_kept, 0u);
  EXPECT_NE(report->stop_reason.find("unknown marker"), std::string::npos) << report->stop_reason;

  // A corrupt page body inside the second group: only the first group is kept.
  std::string corrupt = bytes;
  for (uint64_t i = 0; i < 16; ++i) corrupt[layout->groups[1].first_page_body + i] ^= 0x5a;
  report = SalvageDataSection(*MemoryFile(corrupt));
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->groups_kept, 1u);
  EXPECT_EQ(report->data_end, second);
}

TEST(SalvageTest, RefusesWhatIsNotATsFile) {
  EXPECT_EQ(SalvageDataSection(*MemoryFile("TsFi")).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(SalvageDataSection(*MemoryFile("NotAFile\x04")).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(SalvageDataSection(*MemoryFile(std::string("TsFile\x07", 7))).status().code(),
            absl::StatusCode::kUnimplemented);
  // A bare head is an empty unsealed file: nothing to keep.
  absl::StatusOr<SalvageReport> report = SalvageDataSection(*MemoryFile(std::string("TsFile\x04", 7)));
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->groups_kept, 0u);
  EXPECT_EQ(report->data_end, 7u);
}

// One aligned chunk group whose time chunk is a single GORILLA page (no statistics, no index):
// its rows come from the stream's sentinel, not from a TS_2DIFF decoder (Apache's selfCheck
// decodes every single-page time chunk with the configured default, TS_2DIFF).
std::string GorillaTimeGroupFile(const std::vector<int64_t>& times, const std::vector<int64_t>& values) {
  std::string file("TsFile\x04", 7);
  AppendU8(file, 0x00);  // chunk group header: StringArrayDeviceID ["t", "d1"]
  AppendUVarInt(file, 2);
  AppendVarString(file, "t");
  AppendVarString(file, "d1");
  std::string time_body;
  EncodeGorillaInt64s(times.data(), times.size(), time_body);
  std::string time_page;
  AppendUVarInt(time_page, static_cast<uint32_t>(time_body.size()));
  AppendUVarInt(time_page, static_cast<uint32_t>(time_body.size()));
  time_page += time_body;
  AppendU8(file, 0x85);  // single-page time chunk
  AppendVarString(file, "");
  AppendUVarInt(file, static_cast<uint32_t>(time_page.size()));
  AppendU8(file, static_cast<uint8_t>(DataType::kVector));
  AppendU8(file, 0);  // UNCOMPRESSED
  AppendU8(file, static_cast<uint8_t>(Encoding::kGorilla));
  file += time_page;
  if (!values.empty()) {
    std::string value_body;
    AppendI32(value_body, static_cast<int32_t>(times.size()));
    value_body.append((times.size() + 7) / 8, '\xff');  // every row present
    for (int64_t v : values) AppendI64(value_body, v);  // PLAIN INT64
    std::string value_page;
    AppendUVarInt(value_page, static_cast<uint32_t>(value_body.size()));
    AppendUVarInt(value_page, static_cast<uint32_t>(value_body.size()));
    value_page += value_body;
    AppendU8(file, 0x45);
    AppendVarString(file, "v");
    AppendUVarInt(file, static_cast<uint32_t>(value_page.size()));
    AppendU8(file, static_cast<uint8_t>(DataType::kInt64));
    AppendU8(file, 0);
    AppendU8(file, static_cast<uint8_t>(Encoding::kPlain));
    file += value_page;
  }
  AppendU8(file, 0x02);  // the separator (the tail is missing)
  return file;
}

TEST(SalvageTest, SinglePageTimeChunksUseTheirOwnEncoding) {
  const std::vector<int64_t> times = {1000, 1007, 1013, 2000, 2001, 2002, 5000, 9000, 9001};
  const std::vector<int64_t> values = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  for (bool with_values : {true, false}) {
    SalvageOptions options;
    options.keep_values = true;
    std::vector<int64_t> decoded_times, decoded_values;
    absl::StatusOr<SalvageReport> report =
        SalvageDataSection(*MemoryFile(GorillaTimeGroupFile(times, with_values ? values : std::vector<int64_t>{})),
                           options, [&](const SalvagedGroup& group) {
                             decoded_times = group.chunks[0].pages.at(0).times;
                             if (group.chunks.size() > 1) decoded_values = group.chunks[1].pages.at(0).values.int64s;
                             return absl::OkStatus();
                           });
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_EQ(report->groups_kept, 1u) << report->stop_reason;
    EXPECT_EQ(report->rows, times.size());
    EXPECT_EQ(decoded_times, times);
    if (with_values) {
      EXPECT_EQ(decoded_values, values);
    }
  }
}

}  // namespace
}  // namespace tsread
