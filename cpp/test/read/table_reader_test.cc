// TableReader against every table CSV of ../shared/fixtures (the Apache Java reader's output):
// every value, in file order; then projections and time ranges against the CSV filtered the
// same way.
#include "tsread/read/table_reader.h"

#include <map>

#include "testing/fixture_rows.h"
#include "testing/fixtures.h"
#include "tsread/io/random_access_file.h"
#include "gtest/gtest.h"

namespace tsread {
namespace {

using testing::CsvField;
using testing::CsvRow;

struct ExpectedTable {
  std::vector<std::string> header;  // "time", then columns
  std::vector<CsvRow> rows;
};

ExpectedTable LoadExpected(const std::string& stem, const std::string& table) {
  std::vector<CsvRow> csv = testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath(stem + "." + table + ".csv")));
  ExpectedTable expected;
  for (const CsvField& f : csv.at(0)) expected.header.push_back(f.text);
  expected.rows.assign(csv.begin() + 1, csv.end());
  return expected;
}

// Reads the table with `options` and checks it row by row against `rows`, whose fields are laid
// out as `header` (the full CSV header); returns the number of rows read.
void ExpectTableRows(const std::string& stem, const std::string& table, const TableReadOptions& options,
                     const std::vector<std::string>& header, const std::vector<CsvRow>& rows) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath(stem + ".tsfile"));
  ASSERT_TRUE(reader.ok()) << reader.status();
  absl::StatusOr<std::unique_ptr<TableReader>> table_reader = TableReader::Create(**reader, table, options);
  ASSERT_TRUE(table_reader.ok()) << table_reader.status();
  const std::vector<ProjectedColumn>& projection = (*table_reader)->projection();
  std::vector<size_t> csv_index;  // CSV field of each projected column
  for (const ProjectedColumn& column : projection) {
    auto it = std::find(header.begin(), header.end(), column.name);
    ASSERT_NE(it, header.end()) << column.name;
    csv_index.push_back(static_cast<size_t>(it - header.begin()));
  }
  size_t row = 0;
  size_t mismatches = 0;
  while (true) {
    absl::StatusOr<const TableBatch*> batch = (*table_reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status();
    if (*batch == nullptr) break;
    const TableBatch& b = **batch;
    for (size_t r = 0; r < b.num_rows(); ++r, ++row) {
      ASSERT_LT(row, rows.size()) << "more rows than expected";
      const CsvRow& expected = rows[row];
      ASSERT_TRUE(testing::FieldEqualsInt(expected[0], b.times[r])) << "row " << row;
      for (size_t j = 0; j < projection.size(); ++j) {
        const CsvField& field = expected[csv_index[j]];
        ::testing::AssertionResult ok = ::testing::AssertionSuccess();
        if (projection[j].category == ColumnCategory::kTag) {
          std::optional<std::string_view> tag = b.tag(projection[j]);
          ok = tag.has_value() ? testing::FieldEqualsBinary(field, DataType::kString, *tag) : testing::FieldIsNull(field);
        } else if (projection[j].category == ColumnCategory::kAttribute) {
          ok = testing::FieldIsNull(field);
        } else {
          ok = testing::CellMatches(field, b.columns[j], r);
        }
        if (!ok && ++mismatches <= 10) ADD_FAILURE() << "row " << row << " column " << projection[j].name << ": " << ok.message();
      }
    }
  }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(row, rows.size());
}

class TableFixtureTest : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(TableFixtureTest, EveryRowMatchesTheJavaReader) {
  const auto& [stem, table] = GetParam();
  ExpectedTable expected = LoadExpected(stem, table);
  ExpectTableRows(stem, table, TableReadOptions{}, expected.header, expected.rows);
}

TEST_P(TableFixtureTest, ProjectionAndTimeRangeMatchTheFilteredCsv) {
  const auto& [stem, table] = GetParam();
  ExpectedTable expected = LoadExpected(stem, table);
  ASSERT_GE(expected.header.size(), 3u);
  // The last column, then the first one (projection reorders), over the middle third of time.
  std::vector<int64_t> times;
  for (const CsvRow& row : expected.rows) times.push_back(std::stoll(row[0].text));
  std::vector<int64_t> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  TableReadOptions options;
  options.columns = {expected.header.back(), expected.header[1]};
  options.time_range.start = sorted[sorted.size() / 3];
  options.time_range.end = sorted[2 * sorted.size() / 3];
  std::vector<CsvRow> filtered;
  for (size_t i = 0; i < expected.rows.size(); ++i) {
    if (options.time_range.Contains(times[i])) filtered.push_back(expected.rows[i]);
  }
  ASSERT_FALSE(filtered.empty());
  ExpectTableRows(stem, table, options, expected.header, filtered);
}

TEST_P(TableFixtureTest, RangesEndingInsidePagesMatchTheCsvPrefix) {
  // A range's end inside a page stops its columns' decoding there (aligned_device_reader.cc): every
  // column, over ranges from the first row to six points through the table's rows.
  const auto& [stem, table] = GetParam();
  ExpectedTable expected = LoadExpected(stem, table);
  std::vector<int64_t> times;
  for (const CsvRow& row : expected.rows) times.push_back(std::stoll(row[0].text));
  std::vector<int64_t> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  for (size_t part = 1; part <= 6; ++part) {
    TableReadOptions options;
    options.time_range.end = sorted[part * (sorted.size() - 1) / 7];
    SCOPED_TRACE(options.time_range.end);
    std::vector<CsvRow> filtered;
    for (size_t i = 0; i < expected.rows.size(); ++i) {
      if (options.time_range.Contains(times[i])) filtered.push_back(expected.rows[i]);
    }
    ExpectTableRows(stem, table, options, expected.header, filtered);
  }
}

std::string ParamName(const ::testing::TestParamInfo<std::pair<std::string, std::string>>& info) {
  return info.param.first + "_" + info.param.second;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, TableFixtureTest, ::testing::ValuesIn(testing::TableCsvFixtures()), ParamName);

TEST(TableReaderTest, UnknownTableAndColumnAreInvalidArgument) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath("table_multi.tsfile"));
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(TableReader::Create(**reader, "nope", {}).status().code(), absl::StatusCode::kInvalidArgument);
  TableReadOptions options;
  options.columns = {"site", "nope"};
  EXPECT_EQ(TableReader::Create(**reader, "tbl_a", options).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(TableReaderTest, EmptyTimeRangeReadsNothing) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath("table_multi.tsfile"));
  ASSERT_TRUE(reader.ok());
  TableReadOptions options;
  options.time_range.start = 0;
  options.time_range.end = 10;
  absl::StatusOr<std::unique_ptr<TableReader>> rows = TableReader::Create(**reader, "tbl_a", options);
  ASSERT_TRUE(rows.ok());
  absl::StatusOr<const TableBatch*> batch = (*rows)->Next();
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(*batch, nullptr);
}

TEST(TableReaderTest, AChunkStoredAsAnotherTypeThanItsColumnIsDataLoss) {
  const std::string bytes = testing::PlainFixtureWithADoubleChunkUnderAnInt64Column();
  ASSERT_FALSE(bytes.empty());
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
  ASSERT_TRUE(reader.ok()) << reader.status();
  absl::StatusOr<std::unique_ptr<TableReader>> rows = TableReader::Create(**reader, "t_enc", {});
  ASSERT_TRUE(rows.ok()) << rows.status();
  absl::Status status;
  while (true) {
    absl::StatusOr<const TableBatch*> batch = (*rows)->Next();
    if (!batch.ok()) {
      status = batch.status();
      break;
    }
    if (*batch == nullptr) break;
  }
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_NE(status.message().find("column \"f_int64\" is stored as DOUBLE, its schema says INT64"), std::string::npos)
      << status;
}

TEST(TableReaderTest, FixtureListCoversEveryTableCsv) { EXPECT_EQ(testing::TableCsvFixtures().size(), 23u); }

}  // namespace
}  // namespace tsread
