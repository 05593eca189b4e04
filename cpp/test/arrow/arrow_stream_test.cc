// The Arrow C stream export, consumed by a checker written against the C Data Interface
// specification: structure (formats, children, buffer counts, lengths, null counts, offsets,
// release callbacks) and every value against the fixture CSVs.
#include "tsread/arrow/arrow_stream.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tsread/io/random_access_file.h"
#include "tsread/write/tsfile_writer.h"
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

// A dictionary<int32, utf8> cell: null, or the dictionary entry its index names.
::testing::AssertionResult DictionaryCellMatches(const ArrowArray& a, int64_t i, const CsvField& e) {
  if (!IsValid(a, i)) return testing::FieldIsNull(e);
  const int32_t index = static_cast<const int32_t*>(a.buffers[1])[i];
  if (index < 0 || index >= a.dictionary->length) return ::testing::AssertionFailure() << "index " << index;
  return CellMatches(*a.dictionary, "u", index, e);
}

// Structural checks of one array, as the specification requires of a producer.
void CheckArrayStructure(const ArrowArray& a, const std::string& format, int64_t length) {
  ASSERT_NE(a.release, nullptr);
  EXPECT_EQ(a.length, length);
  EXPECT_EQ(a.offset, 0);
  EXPECT_EQ(a.n_children, 0);
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

void CheckChildStructure(const ArrowArray& a, const std::string& format, bool dictionary, int64_t length) {
  CheckArrayStructure(a, format, length);
  if (!dictionary) {
    EXPECT_EQ(a.dictionary, nullptr);
    return;
  }
  ASSERT_NE(a.dictionary, nullptr);
  CheckArrayStructure(*a.dictionary, "u", a.dictionary->length);
  EXPECT_EQ(a.dictionary->null_count, 0);
  for (int64_t i = 0; i < length; ++i) {
    if (IsValid(a, i)) {
      EXPECT_LT(static_cast<const int32_t*>(a.buffers[1])[i], a.dictionary->length);
    }
  }
}

// How a fixture is scanned: everything, or with a projection / time range / tag predicate /
// TAG dictionaries / batches cut to a size. The expected rows are the CSV filtered and projected the same way.
enum class Variant { kAll, kProjection, kTimeRange, kTagPredicate, kDictionary, kBatchSize, kEverything };

std::string VariantName(Variant v) {
  switch (v) {
    case Variant::kAll: return "all";
    case Variant::kProjection: return "projection";
    case Variant::kTimeRange: return "time_range";
    case Variant::kTagPredicate: return "tag_predicate";
    case Variant::kDictionary: return "dictionary";
    case Variant::kBatchSize: return "batch_size";
    case Variant::kEverything: return "everything";
  }
  return "?";
}

struct Case {
  std::string stem;
  std::string table;
  Variant variant;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.stem << "." << c.table << " " << VariantName(c.variant); }

// The scan options of a variant, and the CSV rows (header excluded) and columns (CSV field
// indexes, time first) it should produce.
struct Plan {
  ScanOptions options;
  ArrowExportOptions export_options;
  std::vector<size_t> fields;
  std::vector<CsvRow> rows;
};

Plan PlanCase(const Case& c, const TableSchema& schema, const std::vector<CsvRow>& csv) {
  Plan plan;
  plan.options.table = c.table;
  const bool project = c.variant == Variant::kProjection || c.variant == Variant::kEverything;
  const bool range = c.variant == Variant::kTimeRange || c.variant == Variant::kEverything;
  const bool predicate = c.variant == Variant::kTagPredicate || c.variant == Variant::kEverything;
  plan.export_options.tags_as_dictionary = c.variant == Variant::kDictionary || c.variant == Variant::kEverything;
  // Slices of 1,007 rows start at bit offsets that are not byte-aligned in the page's bitmap.
  if (c.variant == Variant::kBatchSize || c.variant == Variant::kEverything) plan.options.batch_size = 1007;
  // Projection: the schema's columns in reverse order, without every third one.
  plan.fields.push_back(0);
  for (size_t j = schema.columns.size(); j-- > 0;) {
    if (project && j % 3 == 1 && schema.columns.size() > 1) continue;
    if (project) plan.options.columns.push_back(schema.columns[j].name);
  }
  if (!project) {
    for (size_t j = 0; j < schema.columns.size(); ++j) plan.fields.push_back(j + 1);
  } else {
    for (const std::string& name : plan.options.columns) {
      plan.fields.push_back(static_cast<size_t>(schema.FindColumn(name).value()) + 1);
    }
  }
  // Time range: the middle third of the times.
  std::vector<int64_t> times;
  for (size_t r = 1; r < csv.size(); ++r) times.push_back(std::stoll(csv[r][0].text));
  std::vector<int64_t> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  if (range && !sorted.empty()) {
    plan.options.time_range.start = sorted[sorted.size() / 3];
    plan.options.time_range.end = sorted[2 * sorted.size() / 3];
  }
  // Tag predicate: the first TAG column IN (the middle row's value, null).
  std::optional<size_t> tag_field;
  std::optional<std::string> tag_value;
  if (predicate) {
    for (size_t j = 0; j < schema.columns.size() && !tag_field.has_value(); ++j) {
      if (schema.columns[j].category == ColumnCategory::kTag) tag_field = j + 1;
    }
    if (tag_field.has_value() && csv.size() > 1) {
      const CsvField& middle = csv[csv.size() / 2][*tag_field];
      if (!middle.is_null()) tag_value = middle.text;
      plan.options.tag_predicates = {
          TagPredicate{csv[0][*tag_field].text, {tag_value, std::optional<std::string>("no such value")}}};
    }
  }
  for (size_t r = 1; r < csv.size(); ++r) {
    if (!plan.options.time_range.Contains(times[r - 1])) continue;
    if (tag_field.has_value()) {
      const CsvField& f = csv[r][*tag_field];
      if (tag_value.has_value() ? (f.is_null() || f.text != *tag_value) : !f.is_null()) continue;
    }
    plan.rows.push_back(csv[r]);
  }
  return plan;
}

class ArrowFixtureTest : public ::testing::TestWithParam<Case> {};

TEST_P(ArrowFixtureTest, StreamMatchesTheFilteredCsv) {
  const Case& c = GetParam();
  std::vector<CsvRow> csv = testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath(c.stem + "." + c.table + ".csv")));
  absl::StatusOr<std::unique_ptr<TsFileReader>> opened = TsFileReader::Open(testing::FixturePath(c.stem + ".tsfile"));
  ASSERT_TRUE(opened.ok());
  std::shared_ptr<const TsFileReader> reader = std::move(*opened);
  const TableSchema* schema = reader->FindTable(c.table);
  ASSERT_NE(schema, nullptr);
  const Plan plan = PlanCase(c, *schema, csv);
  if (c.variant != Variant::kAll) {
    ASSERT_FALSE(plan.rows.empty()) << "a variant that selects nothing tests little";
  }
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(*reader, plan.options);
  ASSERT_TRUE(scanner.ok()) << scanner.status();
  ArrowArrayStream stream{};
  ASSERT_TRUE(
      ExportArrowStream(reader, std::shared_ptr<const TableScanner>(std::move(*scanner)), plan.export_options, &stream)
          .ok());
  reader.reset();  // the stream keeps what it needs alive

  ArrowSchema schema_out{};
  ASSERT_EQ(stream.get_schema(&stream, &schema_out), 0);
  ASSERT_STREQ(schema_out.format, "+s");
  ASSERT_EQ(schema_out.n_children, static_cast<int64_t>(plan.fields.size()));
  std::vector<std::string> formats;
  std::vector<bool> dictionary;
  EXPECT_STREQ(schema_out.children[0]->format, "tsm:");
  EXPECT_STREQ(schema_out.children[0]->name, "time");
  EXPECT_EQ(schema_out.children[0]->dictionary, nullptr);
  formats.push_back("l");
  dictionary.push_back(false);
  for (size_t k = 1; k < plan.fields.size(); ++k) {
    const ColumnSchema& column = schema->columns[plan.fields[k] - 1];
    const ArrowSchema* child = schema_out.children[k];
    EXPECT_EQ(child->name, column.name);
    EXPECT_EQ(child->flags & ARROW_FLAG_NULLABLE, ARROW_FLAG_NULLABLE);
    const std::string expected = ExpectedFormat(std::string(DataTypeName(column.data_type)),
                                                std::string(ColumnCategoryName(column.category)));
    const bool is_dictionary = plan.export_options.tags_as_dictionary && column.category == ColumnCategory::kTag;
    if (is_dictionary) {
      EXPECT_STREQ(child->format, "i");
      ASSERT_NE(child->dictionary, nullptr);
      EXPECT_STREQ(child->dictionary->format, "u");
      EXPECT_NE(child->dictionary->release, nullptr);
    } else {
      EXPECT_EQ(child->format, expected);
      EXPECT_EQ(child->dictionary, nullptr);
    }
    formats.push_back(expected);
    dictionary.push_back(is_dictionary);
  }
  schema_out.release(&schema_out);
  EXPECT_EQ(schema_out.release, nullptr);

  size_t row = 0;
  size_t mismatches = 0;
  while (true) {
    ArrowArray batch{};
    ASSERT_EQ(stream.get_next(&stream, &batch), 0) << stream.get_last_error(&stream);
    if (batch.release == nullptr) break;
    ASSERT_EQ(batch.n_children, static_cast<int64_t>(formats.size()));
    ASSERT_GT(batch.length, 0);
    if (plan.options.batch_size > 0) {
      ASSERT_LE(batch.length, static_cast<int64_t>(plan.options.batch_size));
    }
    EXPECT_EQ(batch.null_count, 0);
    for (int64_t k = 0; k < batch.n_children; ++k) {
      CheckChildStructure(*batch.children[k], dictionary[k] ? "i" : formats[k], dictionary[k], batch.length);
    }
    for (int64_t i = 0; i < batch.length; ++i, ++row) {
      ASSERT_LT(row, plan.rows.size());
      for (int64_t k = 0; k < batch.n_children; ++k) {
        const CsvField& expected = plan.rows[row][plan.fields[k]];
        ::testing::AssertionResult ok = dictionary[k] ? DictionaryCellMatches(*batch.children[k], i, expected)
                                                      : CellMatches(*batch.children[k], formats[k], i, expected);
        if (!ok && ++mismatches <= 10) ADD_FAILURE() << "row " << row << " column " << k << ": " << ok.message();
      }
    }
    batch.release(&batch);
    EXPECT_EQ(batch.release, nullptr);
  }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(row, plan.rows.size());
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
}

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const auto& [stem, table] : testing::TableCsvFixtures()) {
    for (Variant v : {Variant::kAll, Variant::kProjection, Variant::kTimeRange, Variant::kTagPredicate,
                      Variant::kDictionary, Variant::kBatchSize, Variant::kEverything}) {
      cases.push_back(Case{stem, table, v});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ArrowFixtureTest, ::testing::ValuesIn(AllCases()), [](const auto& info) {
  return info.param.stem + "_" + info.param.table + "_" + VariantName(info.param.variant);
});

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

// A one-device table "t" (TAG id; FIELD s STRING, b BLOB) with the given values, one row each,
// written by our writer into memory and exported as a stream.
class HostileStringTest : public ::testing::Test {
 protected:
  void Export(const std::string& tag, const std::vector<std::string>& strings, const std::vector<std::string>& blobs,
              bool tags_as_dictionary = false) {
    TableSchema schema;
    schema.name = "t";
    schema.columns.push_back(ColumnSchema{"id", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
    schema.columns.push_back(ColumnSchema{"s", DataType::kString, 0, 0, {}, ColumnCategory::kField});
    schema.columns.push_back(ColumnSchema{"b", DataType::kBlob, 0, 0, {}, ColumnCategory::kField});
    absl::StatusOr<std::unique_ptr<TsFileWriter>> writer = TsFileWriter::CreateInMemory(&file_, schema);
    ASSERT_TRUE(writer.ok()) << writer.status();
    std::vector<int64_t> times;
    ColumnValues s, b;
    s.type = DataType::kString;
    b.type = DataType::kBlob;
    for (size_t r = 0; r < strings.size(); ++r) {
      times.push_back(static_cast<int64_t>(r));
      s.binaries.push_back(strings[r]);
      b.binaries.push_back(blobs[r]);
    }
    ASSERT_TRUE((*writer)->WriteRows((*writer)->MakeDeviceId({tag}), times, {s, b}).ok());
    ASSERT_TRUE((*writer)->Close().ok());
    absl::StatusOr<std::unique_ptr<TsFileReader>> opened = TsFileReader::Open(MemoryFileView(file_));
    ASSERT_TRUE(opened.ok()) << opened.status();
    std::shared_ptr<const TsFileReader> reader = std::move(*opened);
    ScanOptions options;
    options.table = "t";
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(*reader, options);
    ASSERT_TRUE(scanner.ok());
    ArrowExportOptions export_options;
    export_options.tags_as_dictionary = tags_as_dictionary;
    ASSERT_TRUE(ExportArrowStream(reader, std::move(*scanner), export_options, &stream_).ok());
  }
  void TearDown() override {
    if (stream_.release != nullptr) stream_.release(&stream_);
  }
  std::string file_;
  ArrowArrayStream stream_{};
};

TEST_F(HostileStringTest, ValidMultiByteStringsAndArbitraryBlobsExport) {
  const std::vector<std::string> strings = {"é", "", "日本", "\xF0\x9F\x98\x80"};
  const std::vector<std::string> blobs = {"\xFF", std::string("\0\x80", 2), "", "\xC3"};
  ASSERT_NO_FATAL_FAILURE(Export("dev", strings, blobs));
  ArrowArray batch{};
  ASSERT_EQ(stream_.get_next(&stream_, &batch), 0) << stream_.get_last_error(&stream_);
  ASSERT_NE(batch.release, nullptr);
  ASSERT_EQ(batch.length, 4);
  for (int k : {2, 3}) {
    const auto* offsets = static_cast<const int32_t*>(batch.children[k]->buffers[1]);
    const char* data = static_cast<const char*>(batch.children[k]->buffers[2]);
    EXPECT_EQ(batch.children[k]->null_count, 0);
    for (int64_t i = 0; i < 4; ++i) {
      EXPECT_EQ(std::string(data + offsets[i], data + offsets[i + 1]), (k == 2 ? strings : blobs)[i]) << i;
    }
  }
  batch.release(&batch);
}

// "\xC3" then "\xA9": each value is invalid, though their concatenation (the batch's byte
// buffer) is the valid "é" — the check must look at value boundaries.
TEST_F(HostileStringTest, AValueSplittingACharacterFailsTheStream) {
  ASSERT_NO_FATAL_FAILURE(Export("dev", {"ok", "\xC3", "\xA9"}, {"", "", ""}));
  ArrowArray batch{};
  EXPECT_EQ(stream_.get_next(&stream_, &batch), EIO);
  EXPECT_EQ(batch.release, nullptr);
  ASSERT_NE(stream_.get_last_error(&stream_), nullptr);
  EXPECT_THAT(stream_.get_last_error(&stream_), ::testing::HasSubstr("column \"s\" row 1 is not valid UTF-8"));
  // A failed stream stays failed.
  EXPECT_EQ(stream_.get_next(&stream_, &batch), EIO);
}

TEST_F(HostileStringTest, InvalidUtf8InOneValueFailsTheStream) {
  for (const std::string bad : {"\xFF", "\xC0\xAF", "\xED\xA0\x80", "a\xE6\x97"}) {  // overlong, surrogate, truncated
    ASSERT_NO_FATAL_FAILURE(Export("dev", {"fine", bad}, {"", ""}));
    ArrowArray batch{};
    EXPECT_EQ(stream_.get_next(&stream_, &batch), EIO);
    EXPECT_THAT(stream_.get_last_error(&stream_), ::testing::HasSubstr("row 1 is not valid UTF-8"));
    stream_.release(&stream_);
  }
}

TEST_F(HostileStringTest, InvalidUtf8TagFailsTheStreamInBothTagForms) {
  for (bool dictionary : {false, true}) {
    ASSERT_NO_FATAL_FAILURE(Export("\xFE", {"x"}, {"y"}, dictionary));
    ArrowArray batch{};
    EXPECT_EQ(stream_.get_next(&stream_, &batch), EIO);
    EXPECT_THAT(stream_.get_last_error(&stream_), ::testing::HasSubstr("column \"id\" is not valid UTF-8"));
    stream_.release(&stream_);
  }
}

}  // namespace
}  // namespace tsread
