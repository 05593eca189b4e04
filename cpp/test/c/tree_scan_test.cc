// The C ABI's tree-model scans (tsread.h, "Scanning tree-model points"): every point of the tree
// fixtures and of IoTDB data against the reference CSVs, value by typed value, the schema's value
// columns, the selection options, errors, and the stream lifetime rules (run under ASan).
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "testing/arrow_c_stream.h"
#include "testing/csv.h"
#include "testing/expected_values.h"
#include "testing/fixtures.h"
#include "tsread/tsread.h"

namespace tsread {
namespace {

using testing::CsvField;
using testing::CsvRow;
using testing::ParseCsv;

struct SourceDeleter {
  void operator()(tsread_source* s) const { tsread_source_free(s); }
};
using Source = std::unique_ptr<tsread_source, SourceDeleter>;

Source Open(const std::string& path, int raw = 0) {
  const char* inputs[] = {path.c_str()};
  tsread_open_options options;
  tsread_open_options_init(&options);
  options.raw = raw;
  tsread_source* source = nullptr;
  tsread_error* error = nullptr;
  const tsread_code code = tsread_open(inputs, 1, &options, &source, &error);
  EXPECT_EQ(code, TSREAD_OK) << tsread_error_message(error);
  tsread_error_free(error);
  return Source(source);
}

struct Scanned {
  tsread_code code = TSREAD_OK;
  std::string message;
  ArrowArrayStream stream{};
};
Scanned ScanTree(const tsread_source* source, const tsread_tree_scan_options* options) {
  Scanned out;
  tsread_error* error = nullptr;
  out.code = tsread_scan_tree(source, options, &out.stream, &error);
  if (error != nullptr) out.message = tsread_error_message(error);
  tsread_error_free(error);
  return out;
}

bool Bit(const ArrowArray* a, int64_t r) {
  const auto* bits = static_cast<const uint8_t*>(a->buffers[1]);
  const int64_t i = a->offset + r;
  return (bits[i >> 3] >> (i & 7)) & 1;
}
bool IsValid(const ArrowArray* a, int64_t r) {
  if (a->null_count == 0 || a->buffers[0] == nullptr) return true;
  const auto* bits = static_cast<const uint8_t*>(a->buffers[0]);
  const int64_t i = a->offset + r;
  return (bits[i >> 3] >> (i & 7)) & 1;
}
std::string_view StringAt(const ArrowArray* a, int64_t r) {
  const auto* offsets = static_cast<const int32_t*>(a->buffers[1]);
  const auto* data = static_cast<const char*>(a->buffers[2]);
  const int64_t i = a->offset + r;
  return std::string_view(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
}
template <typename T>
T ValueAt(const ArrowArray* a, int64_t r) {
  return static_cast<const T*>(a->buffers[1])[a->offset + r];
}

// date32 days since 1970-01-01 back to the yyyyMMdd int the CSVs hold (H. Hinnant's civil_from_days).
int64_t YyyyMmDd(int32_t days) {
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  const int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return y * 10000 + m * 100 + d;
}

// The value of a row in a value column of Arrow format `format`, against the CSV field.
::testing::AssertionResult ValueMatches(const CsvField& expected, const std::string& format, const ArrowArray* a,
                                        int64_t r) {
  if (format == "b") return testing::FieldEqualsBool(expected, Bit(a, r));
  if (format == "i") return testing::FieldEqualsInt(expected, ValueAt<int32_t>(a, r));
  if (format == "l" || format.rfind("ts", 0) == 0) return testing::FieldEqualsInt(expected, ValueAt<int64_t>(a, r));
  if (format == "tdD") return testing::FieldEqualsInt(expected, YyyyMmDd(ValueAt<int32_t>(a, r)));
  if (format == "f") return testing::FieldEqualsFloat(expected, ValueAt<float>(a, r));
  if (format == "g") return testing::FieldEqualsDouble(expected, ValueAt<double>(a, r));
  if (format == "u") return testing::FieldEqualsBinary(expected, DataType::kString, StringAt(a, r));
  if (format == "z") return testing::FieldEqualsBinary(expected, DataType::kBlob, StringAt(a, r));
  return ::testing::AssertionFailure() << "unexpected value format " << format;
}

// Reads the whole stream and compares it with a tree CSV (device,measurement,time,value): every
// row, exactly one value column set per row. Returns the number of batches.
int64_t ExpectStreamIsCsv(ArrowArrayStream& stream, const std::string& csv_path) {
  const std::vector<CsvRow> csv = ParseCsv(testing::ReadWholeFile(csv_path));
  ArrowSchema schema{};
  EXPECT_EQ(stream.get_schema(&stream, &schema), 0);
  std::vector<std::string> names, formats;
  for (int64_t k = 0; k < schema.n_children; ++k) {
    names.emplace_back(schema.children[k]->name);
    formats.emplace_back(schema.children[k]->format);
  }
  schema.release(&schema);
  EXPECT_GE(names.size(), 4u);
  EXPECT_EQ(names[0], "time");
  EXPECT_EQ(names[1], "device");
  EXPECT_EQ(names[2], "measurement");
  size_t row = 1;  // after the header
  int64_t batches = 0;
  while (true) {
    ArrowArray batch{};
    const int rc = stream.get_next(&stream, &batch);
    EXPECT_EQ(rc, 0) << stream.get_last_error(&stream);
    if (rc != 0 || batch.release == nullptr) break;
    ++batches;
    for (int64_t r = 0; r < batch.length && row < csv.size(); ++r, ++row) {
      const CsvRow& want = csv[row];
      EXPECT_EQ(StringAt(batch.children[1], r), want[0].text) << csv_path << " row " << row;
      EXPECT_EQ(StringAt(batch.children[2], r), want[1].text) << csv_path << " row " << row;
      EXPECT_TRUE(testing::FieldEqualsInt(want[2], ValueAt<int64_t>(batch.children[0], r))) << csv_path << " row " << row;
      int set = 0;
      for (size_t k = 3; k < names.size(); ++k) {
        if (!IsValid(batch.children[k], r)) continue;
        ++set;
        EXPECT_TRUE(ValueMatches(want[3], formats[k], batch.children[k], r))
            << csv_path << " row " << row << " column " << names[k];
      }
      EXPECT_EQ(set, 1) << csv_path << " row " << row;
    }
    batch.release(&batch);
  }
  EXPECT_EQ(row, csv.size()) << csv_path << ": points read";
  stream.release(&stream);
  return batches;
}

TEST(CTreeScanTest, EveryTreeFixtureMatchesItsCsv) {
  for (const std::string stem : {"tree_nonaligned", "tree_aligned", "tree_depths", "v3_sample"}) {
    SCOPED_TRACE(stem);
    Source source = Open(testing::FixturePath(stem + ".tsfile"));
    ASSERT_NE(source, nullptr);
    Scanned scanned = ScanTree(source.get(), nullptr);
    ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
    ExpectStreamIsCsv(scanned.stream, testing::FixturePath(stem + ".tree.csv"));
  }
}

TEST(CTreeScanTest, IotdbDataScansAsIotdbAnswersAndRawAsTheUnion) {
  const std::string dir = testing::FixturesDir() + "/iotdb_datadir";
  for (const auto& [raw, csv] : std::vector<std::pair<int, std::string>>{{0, "expected/tree.csv"}, {1, "raw/tree.csv"}}) {
    SCOPED_TRACE(csv);
    Source source = Open(dir, raw);
    ASSERT_NE(source, nullptr);
    Scanned scanned = ScanTree(source.get(), nullptr);
    ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
    if (raw == 0) {
      ExpectStreamIsCsv(scanned.stream, dir + "/" + csv);
    } else {
      // The union reads file after file; the CSV is sorted by device, measurement, time: compare counts.
      const std::string expected = testing::ReadWholeFile(dir + "/" + csv);
      EXPECT_EQ(testing::ReadStream(scanned.stream).rows, std::count(expected.begin(), expected.end(), '\n') - 1);
    }
  }
}

TEST(CTreeScanTest, ValueColumnsAreTheSelectedSeriesTypes) {
  Source source = Open(testing::FixturePath("tree_nonaligned.tsfile"));
  ASSERT_NE(source, nullptr);
  Scanned all = ScanTree(source.get(), nullptr);
  ASSERT_EQ(all.code, TSREAD_OK) << all.message;
  const testing::StreamContents every = testing::ReadStream(all.stream);
  ASSERT_GT(every.names.size(), 3u);
  for (size_t k = 3; k < every.names.size(); ++k) EXPECT_EQ(every.names[k].rfind("value_", 0), 0u) << every.names[k];
  EXPECT_EQ(every.formats[0], "tsm:");

  // One measurement: one value column, its type's, set on every row.
  const std::vector<CsvRow> csv = ParseCsv(testing::ReadWholeFile(testing::FixturePath("tree_nonaligned.tree.csv")));
  const std::string measurement = csv[1][1].text;
  int64_t expected_rows = 0;
  for (size_t i = 1; i < csv.size(); ++i) expected_rows += csv[i][1].text == measurement ? 1 : 0;
  const char* measurements[] = {measurement.c_str()};
  tsread_tree_scan_options options;
  tsread_tree_scan_options_init(&options);
  options.measurements = measurements;
  options.n_measurements = 1;
  options.batch_rows = 7;
  options.time_unit = TSREAD_TIME_INT64;
  options.names_as_dictionary = 1;
  Scanned one = ScanTree(source.get(), &options);
  ASSERT_EQ(one.code, TSREAD_OK) << one.message;
  const testing::StreamContents got = testing::ReadStream(one.stream);
  ASSERT_EQ(got.names.size(), 4u);
  EXPECT_EQ(got.formats[0], "l");
  EXPECT_EQ(got.formats[1], "i");  // dictionary indices
  EXPECT_EQ(got.rows, expected_rows);
  EXPECT_EQ(got.non_null[3], expected_rows);
  EXPECT_GE(got.batches, (expected_rows + 6) / 7);
}

TEST(CTreeScanTest, DevicesArePathsOrPrefixesAndTimesInclusive) {
  Source source = Open(testing::FixturePath("tree_depths.tsfile"));
  ASSERT_NE(source, nullptr);
  const std::vector<CsvRow> csv = ParseCsv(testing::ReadWholeFile(testing::FixturePath("tree_depths.tree.csv")));
  // The first device's level above it, as a prefix; the time range: the first point's time only.
  const std::string device = csv[1][0].text;
  const std::string prefix = device.substr(0, device.rfind('.'));
  const int64_t t = std::stoll(csv[1][2].text);
  int64_t expected = 0;
  for (size_t i = 1; i < csv.size(); ++i) {
    const std::string& d = csv[i][0].text;
    const bool below = d == prefix || d.rfind(prefix + ".", 0) == 0;
    expected += below && std::stoll(csv[i][2].text) == t ? 1 : 0;
  }
  const char* devices[] = {prefix.c_str()};
  tsread_tree_scan_options options;
  tsread_tree_scan_options_init(&options);
  options.devices = devices;
  options.n_devices = 1;
  options.start = t;
  options.end = t;
  Scanned scanned = ScanTree(source.get(), &options);
  ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
  const testing::StreamContents got = testing::ReadStream(scanned.stream);
  EXPECT_GT(expected, 0);
  EXPECT_EQ(got.rows, expected);
  for (int64_t time : got.times) EXPECT_EQ(time, t);
}

TEST(CTreeScanTest, BadArgumentsAndTableFilesAreErrors) {
  Source tables = Open(testing::FixturePath("table_multi.tsfile"));
  ASSERT_NE(tables, nullptr);
  Scanned none = ScanTree(tables.get(), nullptr);
  EXPECT_EQ(none.code, TSREAD_INVALID_ARGUMENT);
  EXPECT_NE(none.message.find("no tree-model data"), std::string::npos) << none.message;
  EXPECT_EQ(none.stream.release, nullptr);

  Source source = Open(testing::FixturePath("tree_aligned.tsfile"));
  tsread_tree_scan_options options;
  tsread_tree_scan_options_init(&options);
  options.time_unit = 42;
  EXPECT_EQ(ScanTree(source.get(), &options).code, TSREAD_INVALID_ARGUMENT);
  tsread_tree_scan_options_init(&options);
  options.n_devices = 1;  // devices NULL
  Scanned null_devices = ScanTree(source.get(), &options);
  EXPECT_EQ(null_devices.code, TSREAD_INVALID_ARGUMENT);
  EXPECT_NE(null_devices.message.find("devices"), std::string::npos) << null_devices.message;
  const char* measurements[] = {nullptr};
  tsread_tree_scan_options_init(&options);
  options.measurements = measurements;
  options.n_measurements = 1;
  EXPECT_EQ(ScanTree(source.get(), &options).code, TSREAD_INVALID_ARGUMENT);
  tsread_tree_scan_options_init(&options);
  options.struct_size = 0;
  EXPECT_EQ(ScanTree(source.get(), &options).code, TSREAD_INVALID_ARGUMENT);
  EXPECT_EQ(tsread_scan_tree(nullptr, nullptr, nullptr, nullptr), TSREAD_INVALID_ARGUMENT);

  // Nothing selected: the schema without value columns, no rows.
  const char* missing[] = {"no_such_measurement"};
  tsread_tree_scan_options_init(&options);
  options.measurements = missing;
  options.n_measurements = 1;
  Scanned empty = ScanTree(source.get(), &options);
  ASSERT_EQ(empty.code, TSREAD_OK) << empty.message;
  const testing::StreamContents got = testing::ReadStream(empty.stream);
  EXPECT_EQ(got.names, (std::vector<std::string>{"time", "device", "measurement"}));
  EXPECT_EQ(got.rows, 0);
}

TEST(CTreeScanTest, AStreamOutlivesItsSourceAndMayBeReleasedEarly) {
  Scanned scanned;
  {
    Source source = Open(testing::FixturePath("tree_nonaligned.tsfile"));
    tsread_tree_scan_options options;
    tsread_tree_scan_options_init(&options);
    options.batch_rows = 3;
    scanned = ScanTree(source.get(), &options);
    ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
  }
  ArrowArray first{};
  ASSERT_EQ(scanned.stream.get_next(&scanned.stream, &first), 0);
  ASSERT_NE(first.release, nullptr);
  EXPECT_LE(first.length, 3);
  scanned.stream.release(&scanned.stream);  // released half read; the batch stays valid
  EXPECT_EQ(scanned.stream.release, nullptr);
  EXPECT_GT(first.children[1]->length, 0);
  first.release(&first);
}

TEST(CTreeScanTest, AnErrorMidStreamEndsItWithAMessage) {
  std::string bytes = testing::ReadWholeFile(testing::FixturePath("tree_nonaligned.tsfile"));
  // Damage the data section (after the magic and version, before the index): pages fail to decode.
  for (size_t i = 64; i < bytes.size() / 3; i += 7) bytes[i] = static_cast<char>(bytes[i] ^ 0x5A);
  tsread_source* source = nullptr;
  ASSERT_EQ(tsread_open_memory(bytes.data(), bytes.size(), &source, nullptr), TSREAD_OK);
  Source owned(source);
  Scanned scanned = ScanTree(source, nullptr);
  ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
  const testing::StreamContents got = testing::ReadStream(scanned.stream);
  EXPECT_NE(got.error, 0);
  EXPECT_FALSE(got.message.empty());
}

}  // namespace
}  // namespace tsread
