// Dataset and DatasetScanner: datasets built from the reference fixtures (copies, the same rows
// split by time with the writer, files of differing schemas) read as one table, compared with the
// fixtures' expected CSVs; pruning counted in bytes read; bad files in the middle; serialized
// splits; the open-file bound.
#include "tsread/dataset/dataset_scanner.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fixture_rows.h"
#include "testing/row_key.h"
#include "testing/table_rows.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// A fresh, empty directory for one test.
std::string TestDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / absl::StrCat("tsread_dataset_", ::getpid(), "_", name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void CopyFixture(const std::string& stem, const std::string& to) {
  WriteFile(to, testing::ReadWholeFile(testing::FixturePath(stem + ".tsfile")));
}

// Expected rows: each CSV row with the header of its file (files of a dataset differ in columns).
struct ExpectedRow {
  std::shared_ptr<const testing::CsvRow> header;
  testing::CsvRow cells;
};

std::vector<ExpectedRow> CsvRows(const std::string& csv_path) {
  std::vector<testing::CsvRow> rows = testing::ParseCsv(testing::ReadWholeFile(csv_path));
  EXPECT_FALSE(rows.empty()) << csv_path;
  std::vector<ExpectedRow> out;
  if (rows.empty()) return out;
  auto header = std::make_shared<const testing::CsvRow>(rows[0]);
  for (size_t i = 1; i < rows.size(); ++i) out.push_back(ExpectedRow{header, std::move(rows[i])});
  return out;
}

std::optional<size_t> CsvColumn(const testing::CsvRow& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i].text == name) return i;
  }
  return std::nullopt;
}

// Whether row r of the batch equals the expected row: time, then every projected column (a column
// the row's file lacks must be null).
::testing::AssertionResult RowMatches(const std::vector<ProjectedColumn>& projection, const TableBatch& batch, size_t r,
                                      const ExpectedRow& expected) {
  if (auto t = testing::FieldEqualsInt(expected.cells[0], batch.times[r]); !t) return t << " (time)";
  for (size_t j = 0; j < projection.size(); ++j) {
    const std::optional<size_t> c = CsvColumn(*expected.header, projection[j].name);
    const testing::CsvField null_field;
    const testing::CsvField& field = c.has_value() ? expected.cells[*c] : null_field;
    ::testing::AssertionResult ok = ::testing::AssertionSuccess();
    if (projection[j].category == ColumnCategory::kTag) {
      const std::optional<std::string_view> tag = batch.tag(j);
      ok = tag.has_value() ? testing::FieldEqualsBinary(field, DataType::kString, *tag) : testing::FieldIsNull(field);
    } else if (projection[j].category == ColumnCategory::kField) {
      ok = testing::CellMatches(field, batch.columns[j], r);
    }
    if (!ok) return ok << " (column " << projection[j].name << ", time " << batch.times[r] << ")";
  }
  return ::testing::AssertionSuccess();
}

// A canonical text of one row, its file first: compares scans whose order differs.
std::string RowKey(const TableBatch& batch, size_t r) { return testing::RowKey(batch, r, /*with_file=*/true); }

std::unique_ptr<Dataset> OpenDataset(const std::vector<std::string>& inputs, DatasetOptions options = {}) {
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(inputs, std::move(options));
  EXPECT_TRUE(dataset.ok()) << dataset.status();
  return dataset.ok() ? std::move(*dataset) : nullptr;
}

std::unique_ptr<DatasetScanner> MakeScanner(const Dataset& dataset, DatasetScanOptions options) {
  absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(dataset, std::move(options));
  EXPECT_TRUE(scanner.ok()) << scanner.status();
  return scanner.ok() ? std::move(*scanner) : nullptr;
}

// Scans and checks every row, in order, against `expected`; returns the row keys in order.
std::vector<std::string> ScanMatchingInOrder(const DatasetScanner& scanner, const std::vector<ExpectedRow>& expected) {
  std::vector<std::string> keys;
  size_t next = 0;
  absl::Status status = scanner.Scan([&](int, const TableBatch& batch) {
    for (size_t r = 0; r < batch.num_rows(); ++r, ++next) {
      if (next >= expected.size()) return absl::InternalError("more rows than expected");
      EXPECT_TRUE(RowMatches(scanner.projection(), batch, r, expected[next])) << "row " << next;
      keys.push_back(RowKey(batch, r));
    }
    return absl::OkStatus();
  });
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_EQ(next, expected.size());
  return keys;
}

// Row keys of a scan with any threads, sorted (a multiset).
std::vector<std::string> SortedKeys(const DatasetScanner& scanner, absl::Status* status_out = nullptr) {
  std::mutex mutex;
  std::vector<std::string> keys;
  absl::Status status = scanner.Scan([&](int, const TableBatch& batch) {
    std::vector<std::string> mine;
    for (size_t r = 0; r < batch.num_rows(); ++r) mine.push_back(RowKey(batch, r));
    std::lock_guard<std::mutex> lock(mutex);
    keys.insert(keys.end(), mine.begin(), mine.end());
    return absl::OkStatus();
  });
  if (status_out != nullptr) {
    *status_out = status;
  } else {
    EXPECT_TRUE(status.ok()) << status;
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

const char* const kCompStems[] = {"table_comp_LZ4", "table_comp_ZSTD", "table_comp_SNAPPY", "table_comp_GZIP"};

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

// Writes `devices`' rows with times in [from, to) as one file with `schema`.
void WriteSlice(const std::string& path, const TableSchema& schema, const std::vector<testing::DeviceRows>& devices,
                int64_t from, int64_t to) {
  absl::StatusOr<std::unique_ptr<TsFileWriter>> writer = TsFileWriter::Create(path, schema);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (const testing::DeviceRows& device : devices) {
    const size_t begin = static_cast<size_t>(std::lower_bound(device.times.begin(), device.times.end(), from) - device.times.begin());
    const size_t end = static_cast<size_t>(std::lower_bound(device.times.begin(), device.times.end(), to) - device.times.begin());
    if (begin == end) continue;
    std::vector<ColumnValues> fields;
    for (const testing::OwnedColumn& column : device.fields) fields.push_back(column.Slice(begin, end));
    ASSERT_TRUE((*writer)->WriteRows(device.id, std::span<const int64_t>(device.times.data() + begin, end - begin), fields).ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
}

// table_comp_LZ4's rows cut into three files by time (as IoTDB's time partitions are), and the
// CSV rows per slice in file order.
struct TimeSlices {
  std::string dir;
  std::vector<int64_t> bounds;  // slice i is [bounds[i], bounds[i+1])
  std::vector<std::vector<ExpectedRow>> expected;
};

TimeSlices MakeTimeSlices(const std::string& name) {
  TimeSlices slices;
  slices.dir = TestDir(name);
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath("table_comp_LZ4.tsfile"));
  EXPECT_TRUE(reader.ok());
  absl::StatusOr<std::vector<testing::DeviceRows>> devices = testing::ReadTableRows(**reader, "t_comp");
  EXPECT_TRUE(devices.ok());
  TableSchema schema = *(*reader)->FindTable("t_comp");
  slices.bounds = {std::numeric_limits<int64_t>::min(), 1700001000000, 1700002000000, std::numeric_limits<int64_t>::max()};
  const std::vector<ExpectedRow> all = CsvRows(testing::FixturePath("table_comp_LZ4.t_comp.csv"));
  for (size_t i = 0; i + 1 < slices.bounds.size(); ++i) {
    WriteSlice(absl::StrCat(slices.dir, "/part-", i, ".tsfile"), schema, *devices, slices.bounds[i], slices.bounds[i + 1]);
    std::vector<ExpectedRow> rows;
    for (const ExpectedRow& row : all) {
      const int64_t t = std::stoll(row.cells[0].text);
      if (t >= slices.bounds[i] && t < slices.bounds[i + 1]) rows.push_back(row);
    }
    EXPECT_FALSE(rows.empty());
    slices.expected.push_back(std::move(rows));
  }
  return slices;
}

// Records the byte ranges read from each file.
class ReadLog {
 public:
  FileOpener Opener() {
    return [this](const std::string& path) -> absl::StatusOr<std::unique_ptr<RandomAccessFile>> {
      absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenPosixFile(path);
      if (!file.ok()) return file.status();
      return std::unique_ptr<RandomAccessFile>(new Logged(std::move(*file), this));
    };
  }
  // Bytes read in the data section: after the head (magic and version, 7 bytes) and below
  // `meta_offset`, where the index begins.
  uint64_t BytesReadBelow(const std::string& path, uint64_t meta_offset) {
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t total = 0;
    for (const auto& [offset, length] : reads_[path]) {
      const uint64_t begin = std::max<uint64_t>(offset, 7);
      const uint64_t end = std::min(offset + length, meta_offset);
      if (begin < end) total += end - begin;
    }
    return total;
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    reads_.clear();
  }

 private:
  class Logged : public RandomAccessFile {
   public:
    Logged(std::unique_ptr<RandomAccessFile> file, ReadLog* log) : file_(std::move(file)), log_(log) {}
    uint64_t size() const override { return file_->size(); }
    const std::string& name() const override { return file_->name(); }
    absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const override {
      {
        std::lock_guard<std::mutex> lock(log_->mutex_);
        log_->reads_[file_->name()].emplace_back(offset, length);
      }
      return file_->ReadInto(offset, length, into);
    }

   private:
    std::unique_ptr<RandomAccessFile> file_;
    ReadLog* log_;
  };
  std::mutex mutex_;
  std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> reads_;
};

uint64_t MetaOffset(const std::string& path) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(path);
  EXPECT_TRUE(reader.ok());
  return reader.ok() ? (*reader)->metadata().meta_offset : 0;
}

TEST(DatasetTest, TimeSlicedFilesReadAsTheCsvAndTimeRangesSkipWholeFiles) {
  TimeSlices slices = MakeTimeSlices("slices");
  ReadLog log;
  DatasetOptions dataset_options;
  dataset_options.opener = log.Opener();
  std::unique_ptr<Dataset> dataset = OpenDataset({slices.dir}, dataset_options);
  ASSERT_NE(dataset, nullptr);
  ASSERT_EQ(dataset->files().size(), 3u);
  // Opening reads metadata only.
  for (const DatasetFile& file : dataset->files()) EXPECT_EQ(log.BytesReadBelow(file.path, MetaOffset(file.path)), 0u);

  std::vector<ExpectedRow> all;
  for (const auto& rows : slices.expected) all.insert(all.end(), rows.begin(), rows.end());
  ScanMatchingInOrder(*MakeScanner(*dataset, DatasetScanOptions{}), all);

  // A range inside the middle slice: the other files' data sections are never read.
  log.Clear();
  DatasetScanOptions options;
  options.time_range = TimeRange{1700001200000, 1700001300000};
  std::vector<ExpectedRow> in_range;
  for (const ExpectedRow& row : slices.expected[1]) {
    const int64_t t = std::stoll(row.cells[0].text);
    if (options.time_range.Contains(t)) in_range.push_back(row);
  }
  ASSERT_FALSE(in_range.empty());
  for (int threads : {1, 2}) {
    options.num_threads = threads;
    ScanMatchingInOrder(*MakeScanner(*dataset, options), in_range);
  }
  const std::string& first = dataset->files()[0].path;
  const std::string& middle = dataset->files()[1].path;
  const std::string& last = dataset->files()[2].path;
  EXPECT_EQ(log.BytesReadBelow(first, MetaOffset(first)), 0u);
  EXPECT_EQ(log.BytesReadBelow(last, MetaOffset(last)), 0u);
  EXPECT_GT(log.BytesReadBelow(middle, MetaOffset(middle)), 0u);
}

TEST(DatasetTest, TagPredicatesPinningEveryTagSkipFilesWithoutTheDevice) {
  TimeSlices slices = MakeTimeSlices("pinned");
  // A fourth file with other devices only.
  CopyFixture("table_comp_ZSTD", slices.dir + "/z_other.tsfile");
  ReadLog log;
  DatasetOptions dataset_options;
  dataset_options.opener = log.Opener();
  std::unique_ptr<Dataset> dataset = OpenDataset({slices.dir}, dataset_options);
  ASSERT_NE(dataset, nullptr);
  DatasetScanOptions options;
  options.tag_predicates = {TagPredicate{"region", {"north"}}, TagPredicate{"id", {"dev_0"}}};
  std::vector<ExpectedRow> expected;
  for (const auto& rows : slices.expected) {
    for (const ExpectedRow& row : rows) {
      if (row.cells[1].text == "north" && row.cells[2].text == "dev_0") expected.push_back(row);
    }
  }
  for (const ExpectedRow& row : CsvRows(testing::FixturePath("table_comp_ZSTD.t_comp.csv"))) {
    if (row.cells[1].text == "north" && row.cells[2].text == "dev_0") expected.push_back(row);
  }
  ASSERT_FALSE(expected.empty());
  ScanMatchingInOrder(*MakeScanner(*dataset, options), expected);
  // An absent device: no file's data is read.
  log.Clear();
  options.tag_predicates = {TagPredicate{"region", {"north"}}, TagPredicate{"id", {"dev_404"}}};
  ScanMatchingInOrder(*MakeScanner(*dataset, options), {});
  for (const DatasetFile& file : dataset->files()) EXPECT_EQ(log.BytesReadBelow(file.path, MetaOffset(file.path)), 0u);
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

// A dataset of four good files with a bad one in the middle (third in path order).
struct BadFileCase {
  std::string name;
  std::function<void(const std::string& path)> make_bad;
  absl::StatusCode code;
};

TEST(DatasetTest, ABadFileInTheMiddleStopsAfterEverythingBeforeItOrIsSkipped) {
  const std::vector<BadFileCase> cases = {
      {"missing", [](const std::string&) {}, absl::StatusCode::kNotFound},
      {"truncated",
       [](const std::string& path) {
         const std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_comp_LZ4.tsfile"));
         WriteFile(path, bytes.substr(0, bytes.size() / 2));
       },
       absl::StatusCode::kDataLoss},
      {"corrupt",
       [](const std::string& path) {
         // The first chunk of the second device's time column gets a byte that is no chunk marker.
         std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_comp_LZ4.tsfile"));
         absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
         ASSERT_TRUE(reader.ok());
         absl::StatusOr<DeviceIterator> devices = (*reader)->Devices("t_comp");
         ASSERT_TRUE(devices.ok());
         ASSERT_TRUE(devices->Next().ok());
         absl::StatusOr<const DeviceEntry*> entry = devices->Next();
         ASSERT_TRUE(entry.ok() && *entry != nullptr);
         absl::StatusOr<std::vector<TimeseriesMetadata>> series = (*reader)->ReadTimeseries((*entry)->location);
         ASSERT_TRUE(series.ok());
         bytes[static_cast<size_t>(series->front().chunks.at(0).offset)] = '\x7F';
         WriteFile(path, bytes);
       },
       absl::StatusCode::kDataLoss},
  };
  for (const BadFileCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string dir = TestDir("bad_" + c.name);
    std::vector<std::string> inputs;
    std::vector<ExpectedRow> before, after;
    for (int i = 0; i < 5; ++i) {
      const std::string path = absl::StrCat(dir, "/", i, ".tsfile");
      inputs.push_back(path);
      if (i == 2) {
        c.make_bad(path);
        continue;
      }
      const char* stem = kCompStems[i % 4];
      CopyFixture(stem, path);
      std::vector<ExpectedRow> rows = CsvRows(testing::FixturePath(std::string(stem) + ".t_comp.csv"));
      (i < 2 ? before : after).insert((i < 2 ? before : after).end(), rows.begin(), rows.end());
    }
    std::unique_ptr<Dataset> dataset = OpenDataset(inputs);
    ASSERT_NE(dataset, nullptr);
    for (int threads : {1, 2}) {
      for (bool ordered : {true, false}) {
        DatasetScanOptions options;
        options.table = "t_comp";
        options.num_threads = threads;
        options.ordered = ordered;
        std::unique_ptr<DatasetScanner> scanner = MakeScanner(*dataset, options);
        ASSERT_NE(scanner, nullptr);
        std::vector<std::string> keys;
        size_t next = 0;
        std::mutex mutex;
        absl::Status status = scanner->Scan([&](int, const TableBatch& batch) {
          std::lock_guard<std::mutex> lock(mutex);
          for (size_t r = 0; r < batch.num_rows(); ++r) {
            if (ordered && next < before.size()) {
              EXPECT_TRUE(RowMatches(scanner->projection(), batch, r, before[next]));
            }
            if (ordered) {
              EXPECT_EQ(*batch.file, inputs[next < 12000 ? 0 : (next < 24000 ? 1 : 2)]);
            }
            ++next;
          }
          return absl::OkStatus();
        });
        EXPECT_EQ(status.code(), c.code) << status;
        EXPECT_THAT(status.message(), HasSubstr(inputs[2])) << status;
        // Ordered: exactly the rows of the files before it (and, for the corrupt file, its first
        // device's rows, which come before the corrupt chunk).
        if (ordered) {
          EXPECT_EQ(next, before.size() + (c.name == "corrupt" ? 3000 : 0)) << threads;
        }

        // Skipping: every row of the good files, and the bad file listed.
        options.skip_failed_files = true;
        scanner = MakeScanner(*dataset, options);
        std::vector<std::string> files_seen;
        next = 0;
        status = scanner->Scan([&](int, const TableBatch& batch) {
          std::lock_guard<std::mutex> lock(mutex);
          if (*batch.file != inputs[2]) next += batch.num_rows();
          return absl::OkStatus();
        });
        EXPECT_TRUE(status.ok()) << status;
        EXPECT_EQ(next, before.size() + after.size());
        std::vector<SkippedFile> skipped = scanner->skipped_files();
        ASSERT_EQ(skipped.size(), 1u);
        EXPECT_EQ(skipped[0].path, inputs[2]);
        EXPECT_EQ(skipped[0].status.code(), c.code);
      }
    }
    // Skipping at open: files whose metadata cannot be read are listed by the dataset.
    DatasetOptions skip;
    skip.skip_unreadable_files = true;
    std::unique_ptr<Dataset> skipping = OpenDataset(inputs, skip);
    ASSERT_NE(skipping, nullptr);
    EXPECT_EQ(skipping->files().size(), c.name == "corrupt" ? 5u : 4u);
    EXPECT_EQ(skipping->skipped_files().size(), c.name == "corrupt" ? 0u : 1u);
  }
}

TEST(DatasetTest, SerializedSplitsExecutedInAnyOrderGiveTheWholeDataset) {
  TimeSlices slices = MakeTimeSlices("splits");
  CopyFixture("table_comp_ZSTD", slices.dir + "/z.tsfile");
  std::unique_ptr<Dataset> dataset = OpenDataset({slices.dir});
  ASSERT_NE(dataset, nullptr);
  for (const bool filtered : {false, true}) {
    DatasetScanOptions options;
    if (filtered) {
      options.columns = {"f_double", "id", "f_string"};
      options.time_range = TimeRange{1700000500000, 1700002500000};
      options.tag_predicates = {TagPredicate{"region", {"north", std::nullopt}}};
    }
    std::unique_ptr<DatasetScanner> scanner = MakeScanner(*dataset, options);
    ASSERT_NE(scanner, nullptr);
    const std::vector<std::string> whole = SortedKeys(*scanner);
    ASSERT_FALSE(whole.empty());
    absl::StatusOr<std::vector<DatasetSplit>> splits = scanner->Splits(20000);
    ASSERT_TRUE(splits.ok()) << splits.status();
    EXPECT_GT(splits->size(), dataset->files().size());
    std::vector<std::string> serialized;
    for (const DatasetSplit& split : *splits) serialized.push_back(scanner->SerializeSplit(split));
    std::shuffle(serialized.begin(), serialized.end(), std::mt19937(7));
    std::vector<std::string> keys;
    for (const std::string& bytes : serialized) {
      absl::StatusOr<std::unique_ptr<SplitReader>> reader = SplitReader::Open(bytes);
      ASSERT_TRUE(reader.ok()) << reader.status();
      ASSERT_EQ((*reader)->projection().size(), scanner->projection().size());
      ASSERT_TRUE((*reader)->Scan([&](const TableBatch& batch) {
                     for (size_t r = 0; r < batch.num_rows(); ++r) keys.push_back(RowKey(batch, r));
                     return absl::OkStatus();
                   }).ok());
    }
    EXPECT_EQ(Sorted(keys), whole);
  }
  // Not a split, a truncated one, and one whose file changed size.
  DatasetScanOptions options;
  std::unique_ptr<DatasetScanner> scanner = MakeScanner(*dataset, options);
  std::vector<DatasetSplit> splits = scanner->Splits(1 << 30).value();
  const std::string bytes = scanner->SerializeSplit(splits[0]);
  EXPECT_EQ(SplitReader::Open("hello").status().code(), absl::StatusCode::kInvalidArgument);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_EQ(SplitReader::Open(bytes.substr(0, n)).status().code(), absl::StatusCode::kInvalidArgument) << n;
  }
  EXPECT_EQ(SplitReader::Open(bytes + "x").status().code(), absl::StatusCode::kInvalidArgument);
  std::ofstream(dataset->files()[splits[0].file].path, std::ios::app) << "more";
  EXPECT_EQ(SplitReader::Open(bytes).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(DatasetTest, NarrowedSplitsReadOnlyTheNamedColumnsInTheirOrder) {
  TimeSlices slices = MakeTimeSlices("narrowed");
  std::unique_ptr<Dataset> dataset = OpenDataset({slices.dir});
  ASSERT_NE(dataset, nullptr);
  const std::vector<std::string> narrowed = {"f_string", "id"};
  for (const bool all_columns : {true, false}) {
    DatasetScanOptions planned;
    if (!all_columns) planned.columns = {"f_double", "id", "f_string"};
    planned.time_range = TimeRange{1700000500000, 1700002500000};
    std::unique_ptr<DatasetScanner> scanner = MakeScanner(*dataset, planned);
    ASSERT_NE(scanner, nullptr);
    DatasetScanOptions direct = planned;
    direct.columns = narrowed;
    std::unique_ptr<DatasetScanner> expected = MakeScanner(*dataset, direct);
    ASSERT_NE(expected, nullptr);
    absl::StatusOr<std::vector<DatasetSplit>> splits = scanner->Splits(20000);
    ASSERT_TRUE(splits.ok()) << splits.status();
    std::vector<std::string> keys;
    for (const DatasetSplit& split : *splits) {
      const std::string bytes = scanner->SerializeSplit(split);
      absl::StatusOr<std::unique_ptr<SplitReader>> reader = SplitReader::Open(bytes, 0, {}, narrowed);
      ASSERT_TRUE(reader.ok()) << reader.status();
      ASSERT_EQ((*reader)->projection().size(), 2u);
      EXPECT_EQ((*reader)->projection()[0].name, "f_string");
      EXPECT_EQ((*reader)->projection()[1].name, "id");
      ASSERT_TRUE((*reader)->Scan([&](const TableBatch& batch) {
                     for (size_t r = 0; r < batch.num_rows(); ++r) keys.push_back(RowKey(batch, r));
                     return absl::OkStatus();
                   }).ok());
      // A column the split does not project (planned without it, or not in the table at all).
      const std::vector<std::string> outside = {all_columns ? "no_such_column" : "f_int32"};
      EXPECT_EQ(SplitReader::Open(bytes, 0, {}, outside).status().code(), absl::StatusCode::kInvalidArgument);
    }
    ASSERT_FALSE(keys.empty());
    EXPECT_EQ(Sorted(keys), SortedKeys(*expected)) << all_columns;
  }
}

// Descriptors open in the process (one at a time: listing /proc/self/fd takes one).
size_t OpenDescriptors() {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  size_t n = 0;
  for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
    (void)entry;
    ++n;
  }
  return n;
}

// Counts the files open through it (each holds one descriptor) and the most open at once.
class OpenFileCounter {
 public:
  FileOpener Opener() {
    return [this](const std::string& path) -> absl::StatusOr<std::unique_ptr<RandomAccessFile>> {
      absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenPosixFile(path);
      if (!file.ok()) return file.status();
      return std::unique_ptr<RandomAccessFile>(new Counted(std::move(*file), this));
    };
  }
  size_t most() const { return most_.load(); }

 private:
  class Counted : public RandomAccessFile {
   public:
    Counted(std::unique_ptr<RandomAccessFile> file, OpenFileCounter* counter) : file_(std::move(file)), counter_(counter) {
      const size_t now = ++counter_->open_;
      size_t seen = counter_->most_.load();
      while (now > seen && !counter_->most_.compare_exchange_weak(seen, now)) {}
    }
    ~Counted() override { --counter_->open_; }
    uint64_t size() const override { return file_->size(); }
    const std::string& name() const override { return file_->name(); }
    absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const override {
      return file_->ReadInto(offset, length, into);
    }

   private:
    std::unique_ptr<RandomAccessFile> file_;
    OpenFileCounter* counter_;
  };
  std::atomic<size_t> open_{0};
  std::atomic<size_t> most_{0};
};

TEST(DatasetTest, NoMoreFilesOpenThanTheLimitWhateverTheDatasetSize) {
  const std::string dir = TestDir("many");
  const std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_comp_LZ4.tsfile"));
  for (int i = 0; i < 40; ++i) WriteFile(absl::StrCat(dir, "/", 100 + i, ".tsfile"), bytes);
  const size_t baseline = OpenDescriptors();
  OpenFileCounter counter;
  DatasetOptions dataset_options;
  dataset_options.max_open_files = 4;
  dataset_options.opener = counter.Opener();
  std::unique_ptr<Dataset> dataset = OpenDataset({dir}, dataset_options);
  ASSERT_NE(dataset, nullptr);
  EXPECT_LE(counter.most(), 4u);
  EXPECT_LE(OpenDescriptors(), baseline + 4);
  for (int threads : {1, 2, 3}) {
    for (bool ordered : {true, false}) {
      DatasetScanOptions options;
      options.num_threads = threads;
      options.ordered = ordered;
      std::atomic<uint64_t> rows{0};
      size_t most_descriptors = 0;
      ASSERT_TRUE(MakeScanner(*dataset, options)->Scan([&](int, const TableBatch& batch) {
        rows += batch.num_rows();
        // One thread: nothing opens or closes while the descriptors are listed.
        if (threads == 1) most_descriptors = std::max(most_descriptors, OpenDescriptors());
        return absl::OkStatus();
      }).ok());
      EXPECT_EQ(rows.load(), 40u * 12000u);
      EXPECT_LE(most_descriptors, baseline + 4);
      EXPECT_LE(counter.most(), 4u) << threads << (ordered ? " ordered" : " unordered");
    }
  }
  EXPECT_LE(dataset->pool().peak_open_files(), 4u);
}

}  // namespace
}  // namespace tsread
