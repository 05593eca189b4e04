// Dataset: opening datasets (a directory of copies of the reference fixtures, globs and path
// lists), the file listing and table names, and the table's schema reconciled across files of
// differing schemas (absent columns read as null, conflicts named), each read back through a
// DatasetScanner and compared with the fixtures' expected CSVs. Scans (pruning, bad files, the
// open-file bound): dataset_scanner_test.cc; splits: split_codec_test.cc.
#include "tsread/dataset/dataset.h"

#include <filesystem>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/dataset_files.h"
#include "testing/row_key.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::CopyFixture;
using testing::CsvRows;
using testing::ExpectedRow;
using testing::kCompStems;
using testing::MakeScanner;
using testing::OpenDataset;
using testing::ScanMatchingInOrder;
using testing::Sorted;
using testing::SortedKeys;
using testing::TestDir;
using testing::WriteFile;
namespace fs = std::filesystem;

// A canonical text of one row, its file first: compares scans whose order differs.
std::string RowKey(const TableBatch& batch, size_t r) { return testing::RowKey(batch, r, /*with_file=*/true); }

// A directory of copies of the table_comp fixtures (one table, same schema) plus table_multi (other
// tables only: contributes no row of t_comp), and the expected rows in file order.
std::string CompDataset(const std::string& name, std::vector<ExpectedRow>* expected) {
  const std::string dir = TestDir(name);
  fs::create_directories(dir + "/part1");
  int n = 0;
  for (const char* stem : kCompStems) {
    const std::string path = absl::StrCat(dir, n < 2 ? "/part1/" : "/", "f", n, ".tsfile");
    CopyFixture(stem, path);
    ++n;
  }
  CopyFixture("table_multi", dir + "/part1/g_multi.tsfile");
  WriteFile(dir + "/notes.txt", "not a tsfile");  // not listed: wrong extension
  if (expected != nullptr) {
    // Path order: f2, f3 (top level) sort after part1/ files? "/f2" < "/part1": 'f' < 'p'.
    for (int i : {2, 3, 0, 1}) {
      std::vector<ExpectedRow> rows = CsvRows(testing::FixturePath(std::string(kCompStems[i]) + ".t_comp.csv"));
      expected->insert(expected->end(), rows.begin(), rows.end());
    }
  }
  return dir;
}

TEST(DatasetTest, DirectoryOfCopiesReadsAsTheConcatenationOfTheCsvs) {
  std::vector<ExpectedRow> expected;
  const std::string dir = CompDataset("copies", &expected);
  const testing::ScopedTempPath cleanup(dir);
  std::unique_ptr<Dataset> dataset = OpenDataset({dir});
  ASSERT_NE(dataset, nullptr);
  ASSERT_EQ(dataset->files().size(), 5u);
  EXPECT_EQ(dataset->files()[0].path, dir + "/f2.tsfile");
  EXPECT_EQ(dataset->files()[4].path, dir + "/part1/g_multi.tsfile");
  EXPECT_THAT(dataset->TableNames(), ::testing::ElementsAre("t_comp", "tbl_a", "tbl_b", "tbl_c"));
  EXPECT_EQ(dataset->OnlyTable().status().code(), absl::StatusCode::kInvalidArgument);

  DatasetScanOptions options;
  options.table = "t_comp";
  std::unique_ptr<DatasetScanner> one = MakeScanner(*dataset, options);
  ASSERT_NE(one, nullptr);
  const std::vector<std::string> ordered = ScanMatchingInOrder(*one, expected);
  ASSERT_EQ(ordered.size(), 48000u);

  // Two threads, ordered: the same sequence; unordered: the same multiset.
  options.num_threads = 2;
  EXPECT_EQ(ScanMatchingInOrder(*MakeScanner(*dataset, options), expected), ordered);
  options.ordered = false;
  for (int threads : {2, 3}) {
    options.num_threads = threads;
    EXPECT_EQ(SortedKeys(*MakeScanner(*dataset, options)), Sorted(ordered)) << threads << " threads";
  }
  // The pull-based cursor gives the same rows in the same order.
  std::vector<std::string> pulled;
  DatasetScanner::Cursor cursor = one->OpenCursor();
  while (true) {
    absl::StatusOr<TableBatch*> batch = cursor.Next();
    ASSERT_TRUE(batch.ok()) << batch.status();
    if (*batch == nullptr) break;
    for (size_t r = 0; r < (*batch)->num_rows(); ++r) pulled.push_back(RowKey(**batch, r));
  }
  EXPECT_EQ(pulled, ordered);
}

TEST(DatasetTest, GlobsAndPathListsNameTheSameFiles) {
  const std::string dir = CompDataset("globs", nullptr);
  const testing::ScopedTempPath cleanup(dir);
  std::unique_ptr<Dataset> recursive = OpenDataset({dir + "/**/*.tsfile"});
  ASSERT_NE(recursive, nullptr);
  EXPECT_EQ(recursive->files().size(), 5u);
  std::unique_ptr<Dataset> top = OpenDataset({dir + "/*.tsfile"});
  ASSERT_NE(top, nullptr);
  EXPECT_EQ(top->files().size(), 2u);
  std::unique_ptr<Dataset> listed = OpenDataset({dir + "/f3.tsfile", dir + "/part1/f0.tsfile", dir + "/f3.tsfile"});
  ASSERT_NE(listed, nullptr);
  ASSERT_EQ(listed->files().size(), 2u);  // kept once, in the order given
  EXPECT_EQ(listed->files()[0].path, dir + "/f3.tsfile");
  EXPECT_EQ(listed->OnlyTable().value(), "t_comp");
  EXPECT_EQ(Dataset::Open({dir + "/*.nothing"}).status().code(), absl::StatusCode::kNotFound);
}

TableSchema Schema(const std::string& table, std::vector<std::tuple<std::string, ColumnCategory, DataType>> columns) {
  TableSchema schema;
  schema.name = table;
  for (auto& [name, category, type] : columns) {
    ColumnSchema c;
    c.name = name;
    c.category = category;
    c.data_type = type;
    schema.columns.push_back(c);
  }
  return schema;
}

constexpr std::string_view kStrings[] = {"v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7"};

// Writes one device with `rows` rows (at most 8): INT64 fields hold base + row, DOUBLE fields base + row / 2,
// STRING fields "v<row>".
void WriteSmallFile(const std::string& path, const TableSchema& schema, std::vector<std::optional<std::string>> tags,
                    int64_t base, size_t rows) {
  absl::StatusOr<std::unique_ptr<TsFileWriter>> writer = TsFileWriter::Create(path, schema);
  ASSERT_TRUE(writer.ok()) << writer.status();
  std::vector<int64_t> times;
  for (size_t r = 0; r < rows; ++r) times.push_back(base + static_cast<int64_t>(r));
  std::vector<ColumnValues> fields;
  for (const WriterColumn& column : (*writer)->field_columns()) {
    ColumnValues v;
    v.type = column.type;
    v.valid.assign(rows, 1);
    for (size_t r = 0; r < rows; ++r) {
      if (v.type == DataType::kInt64) v.int64s.push_back(base + static_cast<int64_t>(r));
      if (v.type == DataType::kDouble) v.doubles.push_back(static_cast<double>(base) + static_cast<double>(r) / 2);
      if (v.type == DataType::kString) v.binaries.push_back(kStrings[r]);
    }
    fields.push_back(std::move(v));
  }
  ASSERT_TRUE((*writer)->WriteRows((*writer)->MakeDeviceId(tags), times, fields).ok());
  ASSERT_TRUE((*writer)->Close().ok());
}

TEST(DatasetTest, SchemasAreReconciledByColumnNameAndAbsentColumnsReadAsNull) {
  const std::string dir = TestDir("union");
  const testing::ScopedTempPath cleanup(dir);
  const TableSchema a = Schema("t", {{"region", ColumnCategory::kTag, DataType::kString},
                                     {"x", ColumnCategory::kField, DataType::kInt64},
                                     {"y", ColumnCategory::kField, DataType::kDouble}});
  const TableSchema b = Schema("t", {{"site", ColumnCategory::kTag, DataType::kString},
                                     {"region", ColumnCategory::kTag, DataType::kString},
                                     {"x", ColumnCategory::kField, DataType::kInt64},
                                     {"s", ColumnCategory::kField, DataType::kString}});
  WriteSmallFile(dir + "/1.tsfile", a, {"north"}, 100, 3);
  WriteSmallFile(dir + "/2.tsfile", b, {"s1", "south"}, 200, 2);
  std::unique_ptr<Dataset> dataset = OpenDataset({dir});
  ASSERT_NE(dataset, nullptr);
  absl::StatusOr<TableSchema> schema = dataset->ReconciledSchema("t");
  ASSERT_TRUE(schema.ok()) << schema.status();
  std::vector<std::string> names;
  for (const ColumnSchema& c : schema->columns) names.push_back(c.name);
  EXPECT_THAT(names, ::testing::ElementsAre("region", "x", "y", "site", "s"));

  // Rows as text: time, region, x, y, site, s.
  std::vector<std::string> rows;
  for (int threads : {1, 2}) {
    DatasetScanOptions options;
    options.num_threads = threads;
    std::unique_ptr<DatasetScanner> scanner = MakeScanner(*dataset, options);
    ASSERT_NE(scanner, nullptr);
    rows.clear();
    ASSERT_TRUE(scanner->Scan([&](int, const TableBatch& batch) {
                  for (size_t r = 0; r < batch.num_rows(); ++r) {
                    auto text = [&](size_t j) -> std::string {
                      const ColumnVector& c = batch.columns[j];
                      if (!c.IsValid(r)) return "null";
                      if (c.type == DataType::kInt64) return absl::StrCat(c.int64s[r]);
                      if (c.type == DataType::kDouble) return absl::StrCat(c.doubles[r]);
                      return std::string(c.binary(r));
                    };
                    auto tag = [&](size_t j) { return std::string(batch.tag(j).value_or("null")); };
                    rows.push_back(absl::StrCat(batch.times[r], ",", tag(0), ",", text(1), ",", text(2), ",", tag(3),
                                                ",", text(4)));
                  }
                  return absl::OkStatus();
                }).ok());
    EXPECT_THAT(rows, ::testing::ElementsAre("100,north,100,100,null,null", "101,north,101,100.5,null,null",
                                             "102,north,102,101,null,null", "200,south,200,null,s1,v0",
                                             "201,south,201,null,s1,v1"));
  }
  // A predicate on a TAG column one file lacks: that file's rows are null there.
  DatasetScanOptions options;
  options.columns = {"x"};
  options.tag_predicates = {TagPredicate{"site", {std::nullopt}}};
  size_t count = 0;
  ASSERT_TRUE(MakeScanner(*dataset, options)->Scan([&](int, const TableBatch& b) {
    count += b.num_rows();
    EXPECT_EQ(*b.file, dir + "/1.tsfile");
    return absl::OkStatus();
  }).ok());
  EXPECT_EQ(count, 3u);
  options.tag_predicates = {TagPredicate{"site", {"s1"}}};
  count = 0;
  ASSERT_TRUE(MakeScanner(*dataset, options)->Scan([&](int, const TableBatch& b) {
    count += b.num_rows();
    return absl::OkStatus();
  }).ok());
  EXPECT_EQ(count, 2u);
  options.tag_predicates = {TagPredicate{"x", {"1"}}};
  EXPECT_EQ(DatasetScanner::Create(*dataset, options).status().code(), absl::StatusCode::kInvalidArgument);

  // The same name with another type: an error naming both files.
  const TableSchema c = Schema("t", {{"region", ColumnCategory::kTag, DataType::kString},
                                     {"x", ColumnCategory::kField, DataType::kDouble}});
  WriteSmallFile(dir + "/3.tsfile", c, {"east"}, 300, 1);
  dataset = OpenDataset({dir});
  ASSERT_NE(dataset, nullptr);
  absl::Status conflict = DatasetScanner::Create(*dataset, DatasetScanOptions{}).status();
  EXPECT_EQ(conflict.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(conflict.message(), HasSubstr(dir + "/1.tsfile"));
  EXPECT_THAT(conflict.message(), HasSubstr(dir + "/3.tsfile"));
  // Another category.
  const TableSchema d = Schema("t", {{"region", ColumnCategory::kField, DataType::kString}});
  fs::remove(dir + "/3.tsfile");
  WriteSmallFile(dir + "/4.tsfile", d, {}, 400, 1);
  dataset = OpenDataset({dir});
  ASSERT_NE(dataset, nullptr);
  EXPECT_THAT(DatasetScanner::Create(*dataset, DatasetScanOptions{}).status().message(), HasSubstr("4.tsfile"));
}

}  // namespace
}  // namespace tsread
