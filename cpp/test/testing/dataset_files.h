// Test helper (header-only) for the dataset tests: datasets made on disk from the reference fixtures
// (copies, table_comp_LZ4 cut into time slices with the writer), their expected rows from the
// fixtures' CSVs, and scans checked against them in order or as a multiset.
#ifndef TSREAD_TESTING_DATASET_FILES_H_
#define TSREAD_TESTING_DATASET_FILES_H_

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "testing/csv.h"
#include "testing/fixture_rows.h"
#include "testing/fixtures.h"
#include "testing/row_key.h"
#include "testing/table_rows.h"
#include "testing/temp_path.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread::testing {

// A fresh, empty directory for one test (the test removes it: ScopedTempPath).
inline std::string TestDir(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / absl::StrCat("tsread_dataset_", ::getpid(), "_", name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline void CopyFixture(const std::string& stem, const std::string& to) {
  WriteFile(to, ReadWholeFile(FixturePath(stem + ".tsfile")));
}

// Expected rows: each CSV row with the header of its file (files of a dataset differ in columns).
struct ExpectedRow {
  std::shared_ptr<const CsvRow> header;
  CsvRow cells;
};

inline std::vector<ExpectedRow> CsvRows(const std::string& csv_path) {
  std::vector<CsvRow> rows = ParseCsv(ReadWholeFile(csv_path));
  EXPECT_FALSE(rows.empty()) << csv_path;
  std::vector<ExpectedRow> out;
  if (rows.empty()) return out;
  auto header = std::make_shared<const CsvRow>(rows[0]);
  for (size_t i = 1; i < rows.size(); ++i) out.push_back(ExpectedRow{header, std::move(rows[i])});
  return out;
}

inline std::optional<size_t> CsvColumn(const CsvRow& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i].text == name) return i;
  }
  return std::nullopt;
}

// Whether row r of the batch equals the expected row: time, then every projected column (a column
// the row's file lacks must be null).
inline ::testing::AssertionResult RowMatches(const std::vector<ProjectedColumn>& projection, const TableBatch& batch,
                                             size_t r, const ExpectedRow& expected) {
  if (auto t = FieldEqualsInt(expected.cells[0], batch.times[r]); !t) return t << " (time)";
  for (size_t j = 0; j < projection.size(); ++j) {
    const std::optional<size_t> c = CsvColumn(*expected.header, projection[j].name);
    const CsvField null_field;
    const CsvField& field = c.has_value() ? expected.cells[*c] : null_field;
    ::testing::AssertionResult ok = ::testing::AssertionSuccess();
    if (projection[j].category == ColumnCategory::kTag) {
      const std::optional<std::string_view> tag = batch.tag(j);
      ok = tag.has_value() ? FieldEqualsBinary(field, DataType::kString, *tag) : FieldIsNull(field);
    } else if (projection[j].category == ColumnCategory::kField) {
      ok = CellMatches(field, batch.columns[j], r);
    }
    if (!ok) return ok << " (column " << projection[j].name << ", time " << batch.times[r] << ")";
  }
  return ::testing::AssertionSuccess();
}

inline std::unique_ptr<Dataset> OpenDataset(const std::vector<std::string>& inputs, DatasetOptions options = {}) {
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(inputs, std::move(options));
  EXPECT_TRUE(dataset.ok()) << dataset.status();
  return dataset.ok() ? std::move(*dataset) : nullptr;
}

inline std::unique_ptr<DatasetScanner> MakeScanner(const Dataset& dataset, DatasetScanOptions options) {
  absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(dataset, std::move(options));
  EXPECT_TRUE(scanner.ok()) << scanner.status();
  return scanner.ok() ? std::move(*scanner) : nullptr;
}

// Scans and checks every row, in order, against `expected`; returns the row keys (file first) in
// order.
inline std::vector<std::string> ScanMatchingInOrder(const DatasetScanner& scanner,
                                                    const std::vector<ExpectedRow>& expected) {
  std::vector<std::string> keys;
  size_t next = 0;
  absl::Status status = scanner.Scan([&](int, const TableBatch& batch) {
    for (size_t r = 0; r < batch.num_rows(); ++r, ++next) {
      if (next >= expected.size()) return absl::InternalError("more rows than expected");
      EXPECT_TRUE(RowMatches(scanner.projection(), batch, r, expected[next])) << "row " << next;
      keys.push_back(RowKey(batch, r, /*with_file=*/true));
    }
    return absl::OkStatus();
  });
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_EQ(next, expected.size());
  return keys;
}

// Row keys (file first) of a scan with any threads, sorted (a multiset).
inline std::vector<std::string> SortedKeys(const DatasetScanner& scanner, absl::Status* status_out = nullptr) {
  std::mutex mutex;
  std::vector<std::string> keys;
  absl::Status status = scanner.Scan([&](int, const TableBatch& batch) {
    std::vector<std::string> mine;
    for (size_t r = 0; r < batch.num_rows(); ++r) mine.push_back(RowKey(batch, r, /*with_file=*/true));
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

inline std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// The table_comp fixtures: one table t_comp, the same schema, 12000 rows each.
inline constexpr const char* kCompStems[] = {"table_comp_LZ4", "table_comp_ZSTD", "table_comp_SNAPPY",
                                             "table_comp_GZIP"};

// Writes `devices`' rows with times in [from, to) as one file with `schema`.
inline void WriteSlice(const std::string& path, const TableSchema& schema, const std::vector<DeviceRows>& devices,
                       int64_t from, int64_t to) {
  absl::StatusOr<std::unique_ptr<TsFileWriter>> writer = TsFileWriter::Create(path, schema);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (const DeviceRows& device : devices) {
    const size_t begin =
        static_cast<size_t>(std::lower_bound(device.times.begin(), device.times.end(), from) - device.times.begin());
    const size_t end =
        static_cast<size_t>(std::lower_bound(device.times.begin(), device.times.end(), to) - device.times.begin());
    if (begin == end) continue;
    std::vector<ColumnValues> fields;
    for (const OwnedColumn& column : device.fields) fields.push_back(column.Slice(begin, end));
    ASSERT_TRUE(
        (*writer)->WriteRows(device.id, std::span<const int64_t>(device.times.data() + begin, end - begin), fields).ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
}

// table_comp_LZ4's rows cut into three files by time (as IoTDB's time partitions are), and the
// CSV rows per slice in file order.
struct TimeSlices {
  std::string dir;
  std::shared_ptr<const ScopedTempPath> cleanup;  // removes dir with the last copy
  std::vector<int64_t> bounds;  // slice i is [bounds[i], bounds[i+1])
  std::vector<std::vector<ExpectedRow>> expected;
};

inline TimeSlices MakeTimeSlices(const std::string& name) {
  TimeSlices slices;
  slices.dir = TestDir(name);
  slices.cleanup = std::make_shared<const ScopedTempPath>(slices.dir);
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(FixturePath("table_comp_LZ4.tsfile"));
  EXPECT_TRUE(reader.ok());
  absl::StatusOr<std::vector<DeviceRows>> devices = ReadTableRows(**reader, "t_comp");
  EXPECT_TRUE(devices.ok());
  TableSchema schema = *(*reader)->FindTable("t_comp");
  slices.bounds = {std::numeric_limits<int64_t>::min(), 1700001000000, 1700002000000,
                   std::numeric_limits<int64_t>::max()};
  const std::vector<ExpectedRow> all = CsvRows(FixturePath("table_comp_LZ4.t_comp.csv"));
  for (size_t i = 0; i + 1 < slices.bounds.size(); ++i) {
    WriteSlice(absl::StrCat(slices.dir, "/part-", i, ".tsfile"), schema, *devices, slices.bounds[i],
               slices.bounds[i + 1]);
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

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_DATASET_FILES_H_
