// WriteSealedCopy on every reference fixture cut inside chunk groups: the copy opens, passes
// VerifyFile, and reads back exactly the rows of the groups the salvage rule keeps — each device's
// first rows of the fixture CSV (the rule's groups and their row counts come from the sealed
// original's own index, testing/chunk_group_layout.h).
#include "tsread/check/sealed_copy.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/chunk_group_layout.h"
#include "testing/csv.h"
#include "testing/fixture_rows.h"
#include "testing/fixtures.h"
#include "testing/test_mode.h"
#include "tsread/check/file_verifier.h"
#include "tsread/read/series_reader.h"
#include "tsread/read/table_scanner.h"
#include "tsread/read/tsfile_reader.h"
#include "tsread/write/output_sink.h"

namespace tsread {
namespace {

using testing::FullMode;
using testing::SanitizerBuild;

// Cuts that keep 0, 1, a third, two thirds and all but one group: inside the first page of the
// next group (or just after its marker when it has none), plus the whole file. Full mode: every k.
std::vector<uint64_t> CopyCuts(const testing::ChunkGroupLayout& layout) {
  const size_t n = layout.groups.size();
  std::set<size_t> kept = {0, 1, n / 3, 2 * n / 3, n - 1};
  if (SanitizerBuild() && layout.size > 100000) kept = {0, n / 2};
  if (FullMode()) {
    for (size_t k = 0; k < n; ++k) kept.insert(k);
  }
  std::vector<uint64_t> cuts;
  for (size_t k : kept) {
    if (k >= n) continue;
    const testing::GroupLayout& next = layout.groups[k];
    cuts.push_back(next.first_page_body != 0 ? next.first_page_body + 1 : next.offset + 1);
  }
  cuts.push_back(layout.size);
  return cuts;
}

// A table CSV's rows per device id string (table, then the TAG values; null as "null", trailing
// nulls dropped as DeviceId does), in file order.
std::map<std::string, std::vector<testing::CsvRow>> CsvRowsByDevice(const std::vector<testing::CsvRow>& csv,
                                                                    const TableSchema& schema) {
  std::map<std::string, std::vector<testing::CsvRow>> rows;
  for (size_t r = 1; r < csv.size(); ++r) {
    std::vector<std::string> segments = {schema.name};
    size_t last_non_null = 0;
    for (size_t c = 0; c < schema.columns.size(); ++c) {
      if (schema.columns[c].category != ColumnCategory::kTag) continue;
      const testing::CsvField& field = csv[r][c + 1];
      segments.push_back(field.is_null() ? "null" : field.text);
      if (!field.is_null()) last_non_null = segments.size() - 1;
    }
    segments.resize(last_non_null + 1);
    std::string key;
    for (size_t s = 0; s < segments.size(); ++s) key += (s == 0 ? "" : ".") + segments[s];
    rows[key].push_back(csv[r]);
  }
  return rows;
}

// The table's rows in the copy equal each device's first rows of the CSV, as many as the kept
// groups hold.
void ExpectTableEqualsCsvPrefix(const TsFileReader& copy, const TableSchema& schema, const std::string& stem,
                                const std::map<std::string, uint64_t>& kept_rows) {
  const std::map<std::string, std::vector<testing::CsvRow>> expected = CsvRowsByDevice(
      testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath(stem + "." + schema.name + ".csv"))), schema);
  uint64_t expected_total = 0;
  for (const auto& [device, rows] : expected) {
    auto it = kept_rows.find(device);
    if (it != kept_rows.end()) expected_total += it->second;
  }
  bool has_table = false;
  for (const TableSchema* table : copy.Tables()) has_table |= table->name == schema.name;
  if (!has_table) {
    EXPECT_EQ(expected_total, 0u) << schema.name;
    return;
  }
  ScanOptions options;
  options.table = schema.name;
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(copy, options);
  ASSERT_TRUE(scanner.ok()) << scanner.status();
  const std::vector<ProjectedColumn>& projection = (*scanner)->projection();
  ASSERT_EQ(projection.size(), schema.columns.size());
  std::map<std::string, size_t> seen;
  uint64_t total = 0;
  absl::Status status = (*scanner)->Scan([&](int, const TableBatch& batch) {
    const std::string device = batch.device->ToString();
    auto rows = expected.find(device);
    EXPECT_NE(rows, expected.end()) << device;
    if (rows == expected.end()) return absl::OkStatus();
    size_t& next = seen[device];
    for (size_t r = 0; r < batch.num_rows(); ++r, ++next) {
      if (next >= rows->second.size()) {
        ADD_FAILURE() << device << ": more rows than the CSV";
        return absl::OkStatus();
      }
      const testing::CsvRow& want = rows->second[next];
      EXPECT_EQ(std::to_string(batch.times[r]), want[0].text) << device << " row " << next;
      for (size_t j = 0; j < projection.size(); ++j) {
        if (projection[j].category == ColumnCategory::kTag) continue;  // the device key covers them
        EXPECT_TRUE(testing::CellMatches(want[j + 1], batch.columns[j], r))
            << device << " row " << next << " column " << schema.columns[j].name;
      }
    }
    total += batch.num_rows();
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  for (const auto& [device, n] : seen) {
    auto it = kept_rows.find(device);
    EXPECT_EQ(n, it == kept_rows.end() ? 0 : it->second) << device;
  }
  EXPECT_EQ(total, expected_total) << schema.name;
}

// Every tree-model series of the copy equals its first points of the tree CSV, as many as the
// kept groups hold.
void ExpectTreeEqualsCsvPrefix(const TsFileReader& copy, const std::string& stem,
                               const std::map<std::string, uint64_t>& kept_points) {
  std::map<std::string, std::vector<testing::CsvRow>> expected;  // "device/measurement"
  const std::vector<testing::CsvRow> csv =
      testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath(stem + ".tree.csv")));
  for (size_t r = 1; r < csv.size(); ++r) expected[csv[r][0].text + "/" + csv[r][1].text].push_back(csv[r]);
  std::map<std::string, uint64_t> got;
  for (const std::string& index : copy.TreeIndexNames()) {
    absl::StatusOr<DeviceIterator> devices = copy.Devices(index);
    ASSERT_TRUE(devices.ok()) << devices.status();
    while (true) {
      absl::StatusOr<const DeviceEntry*> device = devices->Next();
      ASSERT_TRUE(device.ok()) << device.status();
      if (*device == nullptr) break;
      absl::StatusOr<std::vector<TimeseriesMetadata>> series = copy.ReadTimeseries((*device)->location);
      ASSERT_TRUE(series.ok()) << series.status();
      const std::string name = (*device)->id.ToString();
      for (const TimeseriesMetadata& tsm : *series) {
        if (tsm.is_time_column()) continue;
        const std::string key = name + "/" + tsm.measurement;
        const std::vector<testing::CsvRow>& want = expected[key];
        uint64_t& n = got[key];
        absl::StatusOr<std::unique_ptr<SeriesReader>> points = SeriesReader::Create(copy, name, *series, tsm.measurement);
        ASSERT_TRUE(points.ok()) << points.status();
        while (true) {
          absl::StatusOr<const SeriesBatch*> batch = (*points)->Next();
          ASSERT_TRUE(batch.ok()) << batch.status();
          if (*batch == nullptr) break;
          for (size_t r = 0; r < (*batch)->times.size(); ++r) {
            if (!(*batch)->values.IsValid(r)) continue;
            ASSERT_LT(n, want.size()) << key;
            EXPECT_EQ(std::to_string((*batch)->times[r]), want[n][2].text) << key;
            EXPECT_TRUE(testing::CellMatches(want[n][3], (*batch)->values, r)) << key << " point " << n;
            ++n;
          }
        }
      }
    }
  }
  std::erase_if(got, [](const auto& entry) { return entry.second == 0; });
  std::map<std::string, uint64_t> want = kept_points;
  std::erase_if(want, [](const auto& entry) { return entry.second == 0; });
  // Table-model series are compared by ExpectTableEqualsCsvPrefix.
  std::erase_if(want, [&](const auto& entry) { return expected.count(entry.first) == 0; });
  EXPECT_EQ(got, want);
}

class SealedCopyFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SealedCopyFixtureTest, CopiesOpenVerifyAndReadTheKeptRowsOfTheCsv) {
  const std::string stem = GetParam();
  const std::string bytes = testing::ReadWholeFile(testing::FixturePath(stem + ".tsfile"));
  ASSERT_FALSE(bytes.empty());
  absl::StatusOr<std::unique_ptr<TsFileReader>> sealed = TsFileReader::Open(MemoryFileView(bytes));
  ASSERT_TRUE(sealed.ok()) << sealed.status();
  absl::StatusOr<testing::ChunkGroupLayout> layout = testing::LayoutOf(**sealed);
  ASSERT_TRUE(layout.ok()) << layout.status();
  const bool tree = !testing::ReadWholeFile(testing::FixturePath(stem + ".tree.csv")).empty();
  for (uint64_t length : CopyCuts(*layout)) {
    SCOPED_TRACE(::testing::Message() << stem << " cut at " << length << " of " << bytes.size());
    const std::string prefix = bytes.substr(0, length);
    SealedCopyOptions options;
    options.schemas = (*sealed)->metadata().table_schemas;
    std::string copy_bytes;
    std::unique_ptr<OutputSink> sink = StringOutputSink(&copy_bytes);
    absl::StatusOr<SealedCopyResult> copy = WriteSealedCopy(*MemoryFileView(prefix), *sink, options);
    const size_t kept = layout->KeptGroups(length);
    if (kept == 0) {  // nothing to seal: an error, and nothing written
      EXPECT_EQ(copy.status().code(), absl::StatusCode::kDataLoss) << copy.status();
      EXPECT_TRUE(copy_bytes.empty());
      continue;
    }
    ASSERT_TRUE(copy.ok()) << copy.status();
    EXPECT_TRUE(copy->warnings.empty()) << copy->warnings.front();
    ASSERT_EQ(copy->report.groups_kept, kept);
    EXPECT_EQ(copy->bytes_written, copy_bytes.size());
    EXPECT_EQ(copy_bytes.substr(0, copy->report.data_end), bytes.substr(0, copy->report.data_end));

    absl::StatusOr<std::unique_ptr<TsFileReader>> reopened = TsFileReader::Open(MemoryFileView(copy_bytes));
    ASSERT_TRUE(reopened.ok()) << reopened.status();
    EXPECT_EQ((*reopened)->version(), (*sealed)->version());
    absl::StatusOr<VerifyReport> verify = VerifyFile(**reopened);
    ASSERT_TRUE(verify.ok()) << verify.status();
    EXPECT_TRUE(verify->clean()) << verify->problems.front();

    const std::map<std::string, uint64_t> rows = layout->RowsOfFirst(kept);
    for (const TableSchema* table : (*sealed)->Tables()) ExpectTableEqualsCsvPrefix(**reopened, *table, stem, rows);
    if (tree) ExpectTreeEqualsCsvPrefix(**reopened, stem, layout->PointsOfFirst(kept));
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SealedCopyFixtureTest, ::testing::ValuesIn(testing::FixtureStems()),
                         [](const auto& info) { return info.param; });

// Without schemas, TAG columns are named by position and the copy says so; FIELD columns keep
// their names and the rows are all there.
TEST(SealedCopyTest, WithoutASchemaTagsAreNamedByPosition) {
  const std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_multi.tsfile"));
  std::string copy_bytes;
  std::unique_ptr<OutputSink> sink = StringOutputSink(&copy_bytes);
  absl::StatusOr<SealedCopyResult> copy = WriteSealedCopy(*MemoryFileView(bytes), *sink);
  ASSERT_TRUE(copy.ok()) << copy.status();
  EXPECT_EQ(copy->warnings.size(), 3u);  // tbl_a, tbl_b, tbl_c
  absl::StatusOr<std::unique_ptr<TsFileReader>> reopened = TsFileReader::Open(MemoryFileView(copy_bytes));
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  const std::vector<const TableSchema*> tables = (*reopened)->Tables();
  ASSERT_EQ(tables.size(), 3u);
  const TableSchema& c = *tables[2];
  EXPECT_EQ(c.name, "tbl_c");
  ASSERT_GE(c.columns.size(), 3u);
  for (size_t t = 0; t < 3; ++t) {
    EXPECT_EQ(c.columns[t].name, "tag" + std::to_string(t));
    EXPECT_EQ(c.columns[t].category, ColumnCategory::kTag);
  }
  std::set<std::string> fields;
  for (size_t i = 3; i < c.columns.size(); ++i) fields.insert(c.columns[i].name);
  EXPECT_EQ(fields, (std::set<std::string>{"pm25", "note", "raw", "event_ts"}));
  ScanOptions options;
  options.table = "tbl_c";
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(**reopened, options);
  ASSERT_TRUE(scanner.ok());
  uint64_t rows = 0;
  ASSERT_TRUE((*scanner)->Scan([&](int, const TableBatch& batch) {
                rows += batch.num_rows();
                return absl::OkStatus();
              }).ok());
  EXPECT_EQ(rows, testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath("table_multi.tbl_c.csv"))).size() - 1);
}

}  // namespace
}  // namespace tsread

namespace tsread {
namespace {

// A chunk group header with no chunk after it (legal, §2.3) is kept with the data section but
// gives its device no index entry; the copy still reads and verifies (found by the salvage fuzzer).
TEST(SealedCopyTest, AnEmptyChunkGroupIsKeptButNotIndexed) {
  const std::string v3 = testing::ReadWholeFile(testing::FixturePath("v3_sample.tsfile"));
  // v3_sample: group d1 at [7, 88), group d2 at [88, 100), the separator at 100.
  const std::string file = v3.substr(0, 88) + std::string("\x00\x02x", 3) + v3.substr(88, 13);
  std::string copy_bytes;
  std::unique_ptr<OutputSink> sink = StringOutputSink(&copy_bytes);
  absl::StatusOr<SealedCopyResult> copy = WriteSealedCopy(*MemoryFileView(file), *sink);
  ASSERT_TRUE(copy.ok()) << copy.status();
  EXPECT_EQ(copy->report.groups_kept, 3u);
  EXPECT_EQ(copy->report.data_end, 103u);
  absl::StatusOr<std::unique_ptr<TsFileReader>> reopened = TsFileReader::Open(MemoryFileView(copy_bytes));
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  absl::StatusOr<VerifyReport> verify = VerifyFile(**reopened);
  ASSERT_TRUE(verify.ok());
  EXPECT_TRUE(verify->clean()) << verify->problems.front();
  EXPECT_EQ(verify->values, 2u);

  // Only empty groups: nothing to seal.
  copy_bytes.clear();
  sink = StringOutputSink(&copy_bytes);
  const std::string empty_only = v3.substr(0, 7) + std::string("\x00\x02x\x02", 4);
  EXPECT_EQ(WriteSealedCopy(*MemoryFileView(empty_only), *sink).status().code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace tsread

namespace tsread {
namespace {

// Where TsFileMetadata starts: the i32 before the tail magic is its size (§1).
uint64_t MetadataPosition(const std::string& file) {
  const std::string_view size_bytes(file.data() + file.size() - 10, 4);
  uint32_t size = 0;
  for (char c : size_bytes) size = (size << 8) | static_cast<uint8_t>(c);
  return file.size() - 10 - size;
}

// Salvaging a whole sealed fixture with its own schemas rebuilds the index area (separator,
// TimeseriesMetadata, measurement and device nodes) that the Apache writer wrote, byte for byte
// — the best evidence available offline that Apache's readers take the copies. The exceptions are
// known: SPRINTZ/RLBE fixtures, whose Java statistics describe the values before the lossy encoding.
TEST(SealedCopyTest, WholeFixturesGetTheApacheWritersIndexArea) {
  for (const std::string& stem : testing::FixtureStems()) {
    if (stem == "table_enc_SPRINTZ" || stem == "table_enc_RLBE") continue;
    SCOPED_TRACE(stem);
    const std::string bytes = testing::ReadWholeFile(testing::FixturePath(stem + ".tsfile"));
    absl::StatusOr<std::unique_ptr<TsFileReader>> sealed = TsFileReader::Open(MemoryFileView(bytes));
    ASSERT_TRUE(sealed.ok());
    SealedCopyOptions options;
    options.schemas = (*sealed)->metadata().table_schemas;
    options.max_index_degree = stem == "table_wide" ? 16 : 256;  // table_wide.how.txt: maxDegreeOfIndexNode=16
    std::string copy_bytes;
    std::unique_ptr<OutputSink> sink = StringOutputSink(&copy_bytes);
    ASSERT_TRUE(WriteSealedCopy(*MemoryFileView(bytes), *sink, options).ok());
    const uint64_t end = MetadataPosition(bytes);
    ASSERT_EQ(MetadataPosition(copy_bytes), end);
    EXPECT_TRUE(copy_bytes.compare(0, end, bytes, 0, end) == 0);
  }
}

}  // namespace
}  // namespace tsread
