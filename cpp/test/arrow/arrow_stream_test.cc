// The Arrow C stream export, consumed by a checker written against the C Data Interface
// specification: structure (formats, children, buffer counts, lengths, null counts, offsets,
// release callbacks) and every value against the fixture CSVs.
#include "tsread/arrow/arrow_stream.h"

#include <chrono>
#include <cstring>

#include "gtest/gtest.h"
#include "testing/csv.h"
#include "testing/fixture_rows.h"
#include "testing/expected_values.h"
#include "testing/fixtures.h"

namespace tsread {
namespace {

using testing::CsvField;
using testing::CsvRow;

bool BitSet(const void* bitmap, int64_t i) {
  return (static_cast<const uint8_t*>(bitmap)[i >> 3] >> (i & 7)) & 1;
}

bool IsValid(const ArrowArray& a, int64_t i) { return a.buffers[0] == nullptr || BitSet(a.buffers[0], i); }

std::string ExpectedFormat(const std::string& type, const std::string& category) {
  if (category != "FIELD") return "u";
  if (type == "BOOLEAN") return "b";
  if (type == "INT32") return "i";
  if (type == "INT64") return "l";
  if (type == "FLOAT") return "f";
  if (type == "DOUBLE") return "g";
  if (type == "TEXT" || type == "STRING") return "u";
  if (type == "BLOB") return "z";
  if (type == "DATE") return "tdD";
  if (type == "TIMESTAMP") return "tsm:";
  return "?";
}

// Days since the epoch of a yyyyMMdd integer, through std::chrono's calendar.
int32_t ExpectedDate32(const std::string& text) {
  const int v = std::stoi(text);
  const std::chrono::year_month_day ymd{std::chrono::year(v / 10000), std::chrono::month(unsigned(v / 100 % 100)),
                                        std::chrono::day(unsigned(v % 100))};
  return static_cast<int32_t>(std::chrono::sys_days(ymd).time_since_epoch().count());
}

::testing::AssertionResult CellMatches(const ArrowArray& a, const std::string& format, int64_t i, const CsvField& e) {
  if (!IsValid(a, i)) return testing::FieldIsNull(e);
  if (format == "b") return testing::FieldEqualsBool(e, BitSet(a.buffers[1], i));
  if (format == "i") return testing::FieldEqualsInt(e, static_cast<const int32_t*>(a.buffers[1])[i]);
  if (format == "l" || format == "tsm:") return testing::FieldEqualsInt(e, static_cast<const int64_t*>(a.buffers[1])[i]);
  if (format == "f") return testing::FieldEqualsFloat(e, static_cast<const float*>(a.buffers[1])[i]);
  if (format == "g") return testing::FieldEqualsDouble(e, static_cast<const double*>(a.buffers[1])[i]);
  if (format == "tdD") {
    if (e.is_null()) return ::testing::AssertionFailure() << "expected null";
    const int32_t days = static_cast<const int32_t*>(a.buffers[1])[i];
    if (days != ExpectedDate32(e.text)) return ::testing::AssertionFailure() << e.text << " vs day " << days;
    return ::testing::AssertionSuccess();
  }
  if (format == "u" || format == "z") {
    const auto* offsets = static_cast<const int32_t*>(a.buffers[1]);
    const char* data = static_cast<const char*>(a.buffers[2]);
    const std::string_view v(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
    return testing::FieldEqualsBinary(e, format == "z" ? DataType::kBlob : DataType::kString, v);
  }
  return ::testing::AssertionFailure() << "unknown format " << format;
}

// Structural checks of one child array, as the specification requires of a producer.
void CheckChildStructure(const ArrowArray& a, const std::string& format, int64_t length) {
  ASSERT_NE(a.release, nullptr);
  EXPECT_EQ(a.length, length);
  EXPECT_EQ(a.offset, 0);
  EXPECT_EQ(a.n_children, 0);
  EXPECT_EQ(a.dictionary, nullptr);
  const bool var = format == "u" || format == "z";
  ASSERT_EQ(a.n_buffers, var ? 3 : 2);
  ASSERT_NE(a.buffers[1], nullptr);
  int64_t nulls = 0;
  for (int64_t i = 0; i < length; ++i) nulls += !IsValid(a, i);
  EXPECT_EQ(a.null_count, nulls);
  if (var) {
    const auto* offsets = static_cast<const int32_t*>(a.buffers[1]);
    EXPECT_EQ(offsets[0], 0);
    for (int64_t i = 0; i < length; ++i) {
      ASSERT_LE(offsets[i], offsets[i + 1]);
    }
    if (offsets[length] > 0) {
      EXPECT_NE(a.buffers[2], nullptr);
    }
  }
}

struct Case {
  std::string stem;
  std::string table;
};

class ArrowFixtureTest : public ::testing::TestWithParam<Case> {};

TEST_P(ArrowFixtureTest, StreamMatchesTheCsv) {
  const Case& c = GetParam();
  std::vector<CsvRow> csv = testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath(c.stem + "." + c.table + ".csv")));
  absl::StatusOr<std::unique_ptr<TsFileReader>> opened = TsFileReader::Open(testing::FixturePath(c.stem + ".tsfile"));
  ASSERT_TRUE(opened.ok());
  std::shared_ptr<const TsFileReader> reader = std::move(*opened);
  ScanOptions options;
  options.table = c.table;
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(*reader, options);
  ASSERT_TRUE(scanner.ok());
  const TableSchema* schema = reader->FindTable(c.table);
  ArrowArrayStream stream{};
  ASSERT_TRUE(ExportArrowStream(reader, std::shared_ptr<const TableScanner>(std::move(*scanner)), {}, &stream).ok());
  reader.reset();  // the stream keeps what it needs alive

  ArrowSchema schema_out{};
  ASSERT_EQ(stream.get_schema(&stream, &schema_out), 0);
  ASSERT_STREQ(schema_out.format, "+s");
  ASSERT_EQ(schema_out.n_children, static_cast<int64_t>(schema->columns.size() + 1));
  std::vector<std::string> formats;
  EXPECT_STREQ(schema_out.children[0]->format, "tsm:");
  EXPECT_STREQ(schema_out.children[0]->name, "time");
  formats.push_back("l");
  for (size_t j = 0; j < schema->columns.size(); ++j) {
    const ArrowSchema* child = schema_out.children[j + 1];
    EXPECT_EQ(child->name, schema->columns[j].name);
    EXPECT_EQ(child->flags & ARROW_FLAG_NULLABLE, ARROW_FLAG_NULLABLE);
    const std::string expected = ExpectedFormat(std::string(DataTypeName(schema->columns[j].data_type)),
                                                std::string(ColumnCategoryName(schema->columns[j].category)));
    EXPECT_EQ(child->format, expected);
    formats.push_back(child->format);
  }
  schema_out.release(&schema_out);
  EXPECT_EQ(schema_out.release, nullptr);

  size_t row = 1;  // csv[0] is the header
  size_t mismatches = 0;
  while (true) {
    ArrowArray batch{};
    ASSERT_EQ(stream.get_next(&stream, &batch), 0) << stream.get_last_error(&stream);
    if (batch.release == nullptr) break;
    ASSERT_EQ(batch.n_children, static_cast<int64_t>(formats.size()));
    ASSERT_GT(batch.length, 0);
    EXPECT_EQ(batch.null_count, 0);
    for (int64_t k = 0; k < batch.n_children; ++k) {
      CheckChildStructure(*batch.children[k], formats[k], batch.length);
    }
    for (int64_t i = 0; i < batch.length; ++i, ++row) {
      ASSERT_LT(row, csv.size());
      for (int64_t k = 0; k < batch.n_children; ++k) {
        ::testing::AssertionResult ok = CellMatches(*batch.children[k], formats[k], i, csv[row][k]);
        if (!ok && ++mismatches <= 10) ADD_FAILURE() << "row " << row << " column " << k << ": " << ok.message();
      }
    }
    batch.release(&batch);
    EXPECT_EQ(batch.release, nullptr);
  }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(row, csv.size());
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
}

std::vector<Case> AllTableFixtures() {
  std::vector<Case> cases;
  for (const auto& [stem, table] : testing::TableCsvFixtures()) cases.push_back(Case{stem, table});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ArrowFixtureTest, ::testing::ValuesIn(AllTableFixtures()),
                         [](const auto& info) { return info.param.stem + "_" + info.param.table; });

TEST(ArrowStreamTest, ChildrenCanBeMovedOutBeforeTheParentIsReleased) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> opened = TsFileReader::Open(testing::FixturePath("table_multi.tsfile"));
  ASSERT_TRUE(opened.ok());
  std::shared_ptr<const TsFileReader> reader = std::move(*opened);
  ScanOptions options;
  options.table = "tbl_a";
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(*reader, options);
  ASSERT_TRUE(scanner.ok());
  ArrowArrayStream stream{};
  ASSERT_TRUE(ExportArrowStream(reader, std::shared_ptr<const TableScanner>(std::move(*scanner)), {}, &stream).ok());
  ArrowArray batch{};
  ASSERT_EQ(stream.get_next(&stream, &batch), 0);
  ASSERT_NE(batch.release, nullptr);
  // Move child 1 out (the specification's "moving child arrays"), release the parent, then it.
  ArrowArray moved = *batch.children[1];
  batch.children[1]->release = nullptr;
  batch.release(&batch);
  const int64_t length = moved.length;
  EXPECT_GT(length, 0);
  moved.release(&moved);
  EXPECT_EQ(moved.release, nullptr);
  stream.release(&stream);
}

}  // namespace
}  // namespace tsread
