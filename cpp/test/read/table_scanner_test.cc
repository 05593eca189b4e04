// Over 450 lines on purpose: one scanner contract (same rows whatever the threads, order, splits,
// cursors and predicates) checked case by case; its cases share one fixture set and helpers.
// TableScanner: same rows as the validated TableReader (ordered, one thread), the same multiset
// with several threads and split by split, tag predicates against the CSV filtered by tag.
#include "tsread/read/table_scanner.h"

#include <algorithm>
#include <bit>
#include <mutex>
#include <optional>

#include "absl/strings/str_cat.h"
#include "testing/fixture_rows.h"
#include "tsread/io/random_access_file.h"
#include "tsread/write/tsfile_writer.h"
#include "testing/row_key.h"
#include "gtest/gtest.h"

namespace tsread {
namespace {

// A canonical text of one row (the projection is the batch's own).
std::string RowKey(const std::vector<ProjectedColumn>& /*projection*/, const TableBatch& batch, size_t r) {
  return testing::RowKey(batch, r);
}

std::unique_ptr<TsFileReader> Open(const std::string& stem) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath(stem + ".tsfile"));
  EXPECT_TRUE(reader.ok()) << reader.status();
  return reader.ok() ? std::move(*reader) : nullptr;
}

// A scanner of every column of `table`.
absl::StatusOr<std::unique_ptr<TableScanner>> AllColumns(const TsFileReader& reader, const std::string& table) {
  ScanOptions options;
  options.table = table;
  return TableScanner::Create(reader, options);
}

std::vector<std::string> RowsOfTableReader(const TsFileReader& reader, const std::string& table) {
  std::vector<std::string> rows;
  absl::StatusOr<std::unique_ptr<TableReader>> r = TableReader::Create(reader, table, {});
  EXPECT_TRUE(r.ok());
  while (true) {
    absl::StatusOr<const TableBatch*> batch = (*r)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status();
    if (!batch.ok() || *batch == nullptr) break;
    for (size_t i = 0; i < (*batch)->num_rows(); ++i) rows.push_back(RowKey((*r)->projection(), **batch, i));
  }
  return rows;
}

// Every worker's rows, worker after worker; with `workspace`, scanned with its buffers.
std::vector<std::string> RowsOfScan(const TableScanner& scanner, int threads,
                                    TableScanner::Workspace* workspace = nullptr) {
  std::vector<std::vector<std::string>> per_worker(threads);
  auto consume = [&](int worker, const TableBatch& batch) {
    for (size_t i = 0; i < batch.num_rows(); ++i) per_worker[worker].push_back(RowKey(scanner.projection(), batch, i));
    return absl::OkStatus();
  };
  absl::Status s = workspace != nullptr ? scanner.Scan(consume, *workspace) : scanner.Scan(consume);
  EXPECT_TRUE(s.ok()) << s;
  std::vector<std::string> rows;
  for (auto& w : per_worker) rows.insert(rows.end(), w.begin(), w.end());
  return rows;
}

class ScannerFixtureTest : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(ScannerFixtureTest, OneThreadEqualsTableReaderAndThreadsGiveTheSameMultiset) {
  const auto& [stem, table] = GetParam();
  std::unique_ptr<TsFileReader> reader = Open(stem);
  ASSERT_NE(reader, nullptr);
  const std::vector<std::string> expected = RowsOfTableReader(*reader, table);
  ScanOptions options;
  options.table = table;
  absl::StatusOr<std::unique_ptr<TableScanner>> one = TableScanner::Create(*reader, options);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ((*one)->planned_rows().value(), expected.size());
  EXPECT_EQ(RowsOfScan(**one, 1), expected);  // ordered: index order, then time
  std::vector<std::string> sorted_expected = expected;
  std::sort(sorted_expected.begin(), sorted_expected.end());
  for (int threads : {2, 3}) {
    options.num_threads = threads;
    options.ordered = true;
    absl::StatusOr<std::unique_ptr<TableScanner>> ordered = TableScanner::Create(*reader, options);
    ASSERT_TRUE(ordered.ok());
    EXPECT_EQ(RowsOfScan(**ordered, threads), expected) << threads << " threads, ordered";
    options.ordered = false;
    absl::StatusOr<std::unique_ptr<TableScanner>> unordered = TableScanner::Create(*reader, options);
    ASSERT_TRUE(unordered.ok());
    std::vector<std::string> rows = RowsOfScan(**unordered, threads);
    std::sort(rows.begin(), rows.end());
    EXPECT_EQ(rows, sorted_expected) << threads << " threads, unordered";
  }
}

// What an Arrow export does to a batch: its row keys taken, then its buffers moved out (kept
// alive elsewhere). The scan must not read them again: later batches stay whole.
std::vector<std::string> RowsMovingBuffersOut(const TableScanner& scanner, int threads) {
  std::vector<std::vector<std::string>> per_worker(threads);
  std::vector<std::vector<std::vector<int64_t>>> times(threads);
  std::vector<std::vector<ColumnVector>> columns(threads);
  absl::Status s = scanner.Scan([&](int worker, TableBatch& batch) {
    for (size_t i = 0; i < batch.num_rows(); ++i) per_worker[worker].push_back(RowKey(scanner.projection(), batch, i));
    times[worker].push_back(std::move(batch.times));
    for (ColumnVector& column : batch.columns) columns[worker].push_back(std::move(column));
    return absl::OkStatus();
  });
  EXPECT_TRUE(s.ok()) << s;
  std::vector<std::string> rows;
  for (auto& w : per_worker) rows.insert(rows.end(), w.begin(), w.end());
  return rows;
}

TEST_P(ScannerFixtureTest, ConsumersMayMoveBuffersOutOfTheBatches) {
  const auto& [stem, table] = GetParam();
  std::unique_ptr<TsFileReader> reader = Open(stem);
  ASSERT_NE(reader, nullptr);
  const std::vector<std::string> expected = RowsOfTableReader(*reader, table);
  std::vector<std::string> sorted_expected = expected;
  std::sort(sorted_expected.begin(), sorted_expected.end());
  for (int threads : {1, 2, 3}) {
    for (bool ordered : {true, false}) {
      ScanOptions options;
      options.table = table;
      options.num_threads = threads;
      options.ordered = ordered;
      absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(*reader, options);
      ASSERT_TRUE(scanner.ok()) << scanner.status();
      std::vector<std::string> rows = RowsMovingBuffersOut(**scanner, threads);
      if (ordered) {
        EXPECT_EQ(rows, expected) << threads << " threads, ordered";
      } else {
        std::sort(rows.begin(), rows.end());
        EXPECT_EQ(rows, sorted_expected) << threads << " threads, unordered";
      }
    }
  }
}

TEST_P(ScannerFixtureTest, WholeSplitAnnouncesTheRowsAndTimesOfTheScan) {
  const auto& [stem, table] = GetParam();
  std::unique_ptr<TsFileReader> reader = Open(stem);
  ASSERT_NE(reader, nullptr);
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = AllColumns(*reader, table);
  ASSERT_TRUE(scanner.ok());
  absl::StatusOr<ScanSplit> whole = (*scanner)->WholeSplit();
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(whole->first_device, 0u);
  EXPECT_EQ(whole->device_count, (*scanner)->device_count());
  EXPECT_EQ(whole->bytes, 0u);
  // Against the rows and times a scan of every device yields.
  size_t rows = 0;
  std::optional<int64_t> min_time, max_time;
  ASSERT_TRUE((*scanner)
                  ->ScanSplitRows(*whole, [&](const TableBatch& batch) {
                    for (int64_t t : batch.times) {
                      min_time = std::min(min_time.value_or(t), t);
                      max_time = std::max(max_time.value_or(t), t);
                    }
                    rows += batch.num_rows();
                    return absl::OkStatus();
                  })
                  .ok());
  EXPECT_EQ(whole->rows, rows);
  if (rows > 0) {
    EXPECT_EQ(whole->min_time, *min_time);
    EXPECT_EQ(whole->max_time, *max_time);
  }
}

TEST_P(ScannerFixtureTest, SplitsCoverEveryDeviceOnceAndConcatenateToTheFullScan) {
  const auto& [stem, table] = GetParam();
  std::unique_ptr<TsFileReader> reader = Open(stem);
  ASSERT_NE(reader, nullptr);
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = AllColumns(*reader, table);
  ASSERT_TRUE(scanner.ok());
  const std::vector<std::string> expected = RowsOfScan(**scanner, 1);
  for (size_t max_splits : {size_t{1}, size_t{3}, size_t{64}}) {
    std::vector<ScanSplit> splits = (*scanner)->Splits(max_splits).value();
    ASSERT_FALSE(splits.empty());
    EXPECT_LE(splits.size(), max_splits);
    size_t next = 0;
    std::vector<std::string> rows;
    for (const ScanSplit& split : splits) {
      EXPECT_EQ(split.first_device, next);
      EXPECT_GT(split.device_count, 0u);
      EXPECT_GT(split.bytes, 0u);
      next += split.device_count;
      size_t split_rows = 0;
      std::optional<int64_t> min_time, max_time;
      ASSERT_TRUE((*scanner)
                      ->ScanSplitRows(split, [&](const TableBatch& batch) {
                        for (size_t i = 0; i < batch.num_rows(); ++i) {
                          rows.push_back(RowKey((*scanner)->projection(), batch, i));
                          min_time = std::min(min_time.value_or(batch.times[i]), batch.times[i]);
                          max_time = std::max(max_time.value_or(batch.times[i]), batch.times[i]);
                        }
                        split_rows += batch.num_rows();
                        return absl::OkStatus();
                      })
                      .ok());
      // What the metadata announces for the split is what scanning it yields.
      EXPECT_EQ(split.rows, split_rows);
      if (split_rows > 0) {
        EXPECT_EQ(split.min_time, *min_time);
        EXPECT_EQ(split.max_time, *max_time);
      }
    }
    EXPECT_EQ(next, (*scanner)->device_count());
    EXPECT_EQ(rows, expected);
  }
}

// A worker keeps one cursor for every split it reads, in every file of a dataset: reopened onto
// another file's scanner (the previous one destroyed first, so the new one may take its address),
// it reads exactly that scanner's rows.
TEST(TableScannerTest, OneCursorReopenedAcrossFilesReadsEachFilesRows) {
  std::optional<TableScanner::Cursor> cursor;
  for (const auto& [stem, table] : testing::TableCsvFixtures()) {
    SCOPED_TRACE(stem + "." + table);
    std::unique_ptr<TsFileReader> reader = Open(stem);
    ASSERT_NE(reader, nullptr);
    ScanOptions options;
    options.table = table;
    std::unique_ptr<TableScanner> scanner = TableScanner::Create(*reader, options).value();
    const std::vector<std::string> expected = RowsOfScan(*scanner, 1);
    std::vector<std::string> rows;
    const std::vector<ScanSplit> splits = scanner->Splits(3).value();
    for (const ScanSplit& split : splits) {
      if (cursor.has_value()) {
        ASSERT_TRUE(cursor->Reopen(*scanner, split).ok());
      } else {
        cursor.emplace(scanner->OpenCursor(split).value());
      }
      ASSERT_TRUE(cursor
                      ->ForEachBatch([&](const TableBatch& batch) {
                        for (size_t i = 0; i < batch.num_rows(); ++i) rows.push_back(RowKey(scanner->projection(), batch, i));
                        return absl::OkStatus();
                      })
                      .ok());
    }
    EXPECT_EQ(rows, expected);
    ASSERT_TRUE(cursor.has_value());
    const ScanSplit outside{scanner->device_count(), 1, 0};
    EXPECT_EQ(cursor->Reopen(*scanner, outside).code(), absl::StatusCode::kInvalidArgument);
  }
}

// A dataset scans its files in turn with one Workspace: every scan reuses the cursors and batch
// buffers of the one before, whatever the file, projection, thread count and delivery.
TEST(TableScannerTest, OneWorkspaceAcrossScannersGivesEachScannersRows) {
  // Fixtures with different projections: TAG and FIELD columns in different places and types.
  const std::vector<std::pair<std::string, std::string>> fixtures = {
      {"table_alltypes", "t_all"}, {"table_wide", "t_wide"}, {"table_comp_LZ4", "t_comp"}, {"table_many_devices", "t_many"}};
  TableScanner::Workspace workspace;
  for (int round = 0; round < 2; ++round) {
    for (const auto& [stem, table] : fixtures) {
      for (int threads : {1, 2, 3}) {
        for (bool ordered : {true, false}) {
          SCOPED_TRACE(absl::StrCat(stem, ".", table, " threads=", threads, " ordered=", ordered));
          std::unique_ptr<TsFileReader> reader = Open(stem);
          ASSERT_NE(reader, nullptr);
          ScanOptions options;
          options.table = table;
          options.num_threads = threads;
          options.ordered = ordered;
          if (round == 1) options.batch_size = 7;
          std::unique_ptr<TableScanner> scanner = TableScanner::Create(*reader, options).value();
          std::vector<std::string> rows = RowsOfScan(*scanner, threads, &workspace);
          std::vector<std::string> expected = RowsOfTableReader(*reader, table);
          if (!ordered) {
            std::sort(rows.begin(), rows.end());
            std::sort(expected.begin(), expected.end());
          }
          EXPECT_EQ(rows, expected);
        }
      }
    }
  }
}

// Ordered scans give their delivered batch buffers back to the workspace; scan after scan, the
// workspace keeps no more of them than one scan has in flight (it once kept every fresh group).
TEST(TableScannerTest, WorkspaceKeepsABoundedNumberOfBatchGroups) {
  std::unique_ptr<TsFileReader> reader = Open("table_many_devices");
  ASSERT_NE(reader, nullptr);
  ScanOptions options;
  options.table = "t_many";
  options.num_threads = 2;
  options.batch_size = 3;  // many small batches: many groups per scan
  std::unique_ptr<TableScanner> scanner = TableScanner::Create(*reader, options).value();
  TableScanner::Workspace workspace;
  size_t most = 0;
  for (int scan = 0; scan < 30; ++scan) {
    ASSERT_TRUE(scanner->Scan([](int, const TableBatch&) { return absl::OkStatus(); }, workspace).ok());
    most = std::max(most, workspace.kept_batch_groups());
  }
  // What one scan has in flight in steady state: window (threads + 1) splits x 2 queued groups,
  // plus each thread's own two.
  EXPECT_GT(most, 0u);
  EXPECT_LE(most, 10u);
}

// A file of few, long devices: `devices` devices of `pages` pages of 250 rows, one INT64 field
// holding the row's time.
std::string FewLongDevices(size_t devices, size_t pages) {
  TableSchema schema;
  schema.name = "t";
  ColumnSchema id;
  id.name = "id";
  id.data_type = DataType::kString;
  id.category = ColumnCategory::kTag;
  ColumnSchema value;
  value.name = "v";
  value.data_type = DataType::kInt64;
  schema.columns = {id, value};
  TableWriterOptions options;
  options.max_points_per_page = 250;
  std::string bytes;
  std::unique_ptr<TsFileWriter> writer = TsFileWriter::CreateInMemory(&bytes, schema, options).value();
  const size_t rows = pages * options.max_points_per_page;
  std::vector<int64_t> times(rows);
  for (size_t r = 0; r < rows; ++r) times[r] = static_cast<int64_t>(r);
  std::vector<ColumnValues> fields(1);
  fields[0].int64s = times;
  for (size_t d = 0; d < devices; ++d) {
    EXPECT_TRUE(writer->WriteRows(writer->MakeDeviceId({absl::StrCat("d", d)}), times, fields).ok());
  }
  EXPECT_TRUE(writer->Close().ok());
  return bytes;
}

// Guided splits for workers that claim them in turn: contiguous from the first device, each at
// least one device, never larger than the one before, the first a 1 / (2 x workers) share, the
// last a device each, and a few dozen rather than one per device; their rows are the full scan's.
TEST(TableScannerTest, ShrinkingSplitsGoFromAShareOfTheDevicesToOneDevice) {
  const std::string bytes = FewLongDevices(1000, 1);
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(MemoryFileView(bytes, "devices.tsfile")).value();
  ScanOptions options;
  options.table = "t";
  std::unique_ptr<TableScanner> scanner = TableScanner::Create(*reader, options).value();
  ASSERT_EQ(scanner->device_count(), 1000u);
  const std::vector<std::string> expected = RowsOfScan(*scanner, 1);
  for (const size_t workers : {size_t{1}, size_t{2}, size_t{3}, size_t{8}}) {
    const std::vector<ScanSplit> splits = scanner->ShrinkingSplits(workers);
    ASSERT_FALSE(splits.empty());
    EXPECT_EQ(splits.front().device_count, 1000 / (2 * workers)) << workers;
    EXPECT_EQ(splits.back().device_count, 1u) << workers;
    // About 2 x workers x (ln(devices / (2 x workers)) + 1) splits: 26 for two workers.
    EXPECT_LE(splits.size(), 2 * workers * 8) << workers;
    size_t next = 0;
    std::vector<std::string> rows;
    for (size_t s = 0; s < splits.size(); ++s) {
      EXPECT_EQ(splits[s].first_device, next);
      EXPECT_GE(splits[s].device_count, 1u);
      if (s > 0) {
        EXPECT_LE(splits[s].device_count, splits[s - 1].device_count);
      }
      next += splits[s].device_count;
      ASSERT_TRUE(scanner
                      ->ScanSplitRows(splits[s],
                                      [&](const TableBatch& batch) {
                                        for (size_t i = 0; i < batch.num_rows(); ++i) {
                                          rows.push_back(RowKey(scanner->projection(), batch, i));
                                        }
                                        return absl::OkStatus();
                                      })
                      .ok());
    }
    EXPECT_EQ(next, 1000u);
    EXPECT_EQ(rows, expected) << workers;
  }
  // Fewer devices than twice the workers: a device a split.
  const std::string few = FewLongDevices(3, 1);
  std::unique_ptr<TsFileReader> few_reader = TsFileReader::Open(MemoryFileView(few, "few.tsfile")).value();
  std::unique_ptr<TableScanner> few_scanner = TableScanner::Create(*few_reader, options).value();
  EXPECT_EQ(few_scanner->ShrinkingSplits(2).size(), 3u);
}

// An ordered scan queues at most a few groups of batches of a split that is not being delivered,
// on the calling thread as on the others: with three long devices (a split each) the calling
// thread once decoded the split after the one being delivered into the queue whole (each device
// here is 400 pages, so 400 batches). Rows still come in order, also within a memory budget.
TEST(TableScannerTest, OrderedScanOfLongDevicesHoldsAFewBatchesAtOnce) {
  const size_t devices = 3, pages = 400;
  const std::string bytes = FewLongDevices(devices, pages);
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(MemoryFileView(bytes, "long_devices.tsfile")).value();
  for (const int threads : {2, 3}) {
    for (const uint64_t budget : {uint64_t{0}, uint64_t{1} << 20}) {
      ScanOptions options;
      options.table = "t";
      options.num_threads = threads;
      options.memory_budget = budget;
      std::unique_ptr<TableScanner> scanner = TableScanner::Create(*reader, options).value();
      TableScanner::Workspace workspace;
      size_t device = 0, row = 0;
      ASSERT_TRUE(scanner
                      ->Scan(
                          [&](int, TableBatch& batch) {
                            for (size_t r = 0; r < batch.num_rows(); ++r, ++row) {
                              if (row == pages * 250) ++device, row = 0;
                              if (*batch.tag(0) != absl::StrCat("d", device) ||
                                  batch.times[r] != static_cast<int64_t>(row) ||
                                  batch.columns[1].int64s[r] != static_cast<int64_t>(row)) {
                                return absl::InternalError(absl::StrCat("out of order at device ", device, " row ", row));
                              }
                            }
                            // Moved out, as an Arrow export does: handed-over and queued batches alike.
                            std::vector<int64_t> taken = std::move(batch.columns[1].int64s);
                            return absl::OkStatus();
                          },
                          workspace)
                      .ok());
      EXPECT_EQ(device, devices - 1);
      EXPECT_EQ(row, pages * 250);
      // In flight at most: (threads + 1) splits x 2 queued groups, and each thread's group being
      // filled and its spare, of 8 batches each.
      EXPECT_LE(workspace.batches_made(), (static_cast<size_t>(threads + 1) * 2 + 2 * threads) * 8)
          << threads << " threads, budget " << budget;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ScannerFixtureTest, ::testing::ValuesIn(testing::TableCsvFixtures()),
                         [](const auto& info) { return info.param.first + "_" + info.param.second; });

// The expected CSV rows whose `column` field is one of `values` (nullopt = null).
size_t CountCsvRowsWithTag(const std::string& stem, const std::string& table, const std::string& column,
                           const std::vector<std::optional<std::string>>& values) {
  std::vector<testing::CsvRow> csv =
      testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath(stem + "." + table + ".csv")));
  size_t index = 0;
  while (csv[0][index].text != column) ++index;
  size_t n = 0;
  for (size_t r = 1; r < csv.size(); ++r) {
    const testing::CsvField& f = csv[r][index];
    for (const auto& v : values) {
      if (v.has_value() ? (!f.is_null() && f.text == *v) : f.is_null()) {
        ++n;
        break;
      }
    }
  }
  return n;
}

TEST(TableScannerTest, TagPredicatesMatchTheCsvFilteredByTag) {
  std::unique_ptr<TsFileReader> reader = Open("table_alltypes");
  ASSERT_NE(reader, nullptr);
  const std::vector<std::vector<std::optional<std::string>>> cases = {
      {"north"}, {"north", "east"}, {std::nullopt}, {"nowhere"}};
  for (const auto& values : cases) {
    ScanOptions options;
    options.table = "t_all";
    options.columns = {"region", "f_int64"};
    options.tag_predicates = {TagPredicate{"region", values}};
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(*reader, options);
    ASSERT_TRUE(scanner.ok()) << scanner.status();
    size_t rows = 0;
    ASSERT_TRUE((*scanner)
                    ->Scan([&](int, const TableBatch& batch) {
                      const std::optional<std::string_view> tag = batch.tag((*scanner)->projection()[0]);
                      bool ok = false;
                      for (const auto& v : values) ok |= v.has_value() ? tag == *v : !tag.has_value();
                      EXPECT_TRUE(ok);
                      rows += batch.num_rows();
                      return absl::OkStatus();
                    })
                    .ok());
    EXPECT_EQ(rows, CountCsvRowsWithTag("table_alltypes", "t_all", "region", values));
  }
  // Two predicates are ANDed: region=east AND id=dev_02.
  ScanOptions options;
  options.table = "t_all";
  options.tag_predicates = {TagPredicate{"region", {"east"}}, TagPredicate{"id", {"dev_02"}}};
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(*reader, options);
  ASSERT_TRUE(scanner.ok());
  EXPECT_EQ((*scanner)->device_count(), 1u);
  EXPECT_EQ((*scanner)->planned_rows().value(), 5000u);
}

// Predicates on every TAG column are answered by index lookups, one per candidate id; the result
// must be what walking the index gives (forced here by a second, redundant predicate on region).
TEST(TableScannerTest, PredicatesPinningEveryTagMatchTheIndexWalk) {
  std::unique_ptr<TsFileReader> reader = Open("table_alltypes");
  ASSERT_NE(reader, nullptr);
  using Values = std::vector<std::optional<std::string>>;
  const std::vector<std::pair<Values, Values>> cases = {
      {{"east"}, {"dev_02"}},
      {{"west", "east", "east"}, {"dev_14", "dev_03", "dev_99", "dev_06"}},  // unsorted, repeated, absent
      {{std::nullopt}, {"dev_17"}},                                       // null region
      {{"east"}, {std::nullopt}},                                         // null id: a 2-segment id
      {{"北区", "south", std::nullopt}, {"dev_19", "dev_01", "dev_17", "dev_05"}},
      {{"nowhere"}, {"dev_00"}},
  };
  for (const auto& [regions, ids] : cases) {
    auto devices_of = [&](bool walk) {
      ScanOptions options;
      options.table = "t_all";
      options.columns = {"region", "id", "f_int64"};
      options.tag_predicates = {TagPredicate{"region", regions}, TagPredicate{"id", ids}};
      if (walk) options.tag_predicates.push_back(TagPredicate{"region", regions});
      absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(*reader, options);
      EXPECT_TRUE(scanner.ok()) << scanner.status();
      std::vector<std::string> seen;  // device and rows per batch, in delivery order
      EXPECT_TRUE((*scanner)
                      ->Scan([&](int, const TableBatch& batch) {
                        seen.push_back(absl::StrCat(batch.device->ToString(), ":", batch.num_rows()));
                        return absl::OkStatus();
                      })
                      .ok());
      return seen;
    };
    const std::vector<std::string> pinned = devices_of(false);
    EXPECT_EQ(pinned, devices_of(true));
    // Expected: the CSV rows whose region is in `regions` and id in `ids`.
    auto in = [](const testing::CsvField& f, const Values& values) {
      return std::any_of(values.begin(), values.end(), [&](const std::optional<std::string>& v) {
        return v.has_value() ? !f.is_null() && f.text == *v : f.is_null();
      });
    };
    const std::vector<testing::CsvRow> csv =
        testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath("table_alltypes.t_all.csv")));
    size_t expected_rows = 0;
    for (size_t r = 1; r < csv.size(); ++r) expected_rows += in(csv[r][1], regions) && in(csv[r][2], ids);
    size_t rows = 0;
    for (const std::string& s : pinned) rows += std::stoul(s.substr(s.rfind(':') + 1));
    EXPECT_EQ(rows, expected_rows);
  }
}

TEST(TableScannerTest, BatchSizeCutsPagesIntoSlicesWithTheSameRows) {
  std::unique_ptr<TsFileReader> reader = Open("table_alltypes");
  ASSERT_NE(reader, nullptr);
  ScanOptions options;
  options.table = "t_all";
  absl::StatusOr<std::unique_ptr<TableScanner>> whole = TableScanner::Create(*reader, options);
  ASSERT_TRUE(whole.ok());
  const std::vector<std::string> expected = RowsOfScan(**whole, 1);
  for (size_t batch_size : {size_t{1}, size_t{333}, size_t{1000}, size_t{100000}}) {
    options.batch_size = batch_size;
    absl::StatusOr<std::unique_ptr<TableScanner>> sliced = TableScanner::Create(*reader, options);
    ASSERT_TRUE(sliced.ok());
    std::vector<std::string> rows;
    ASSERT_TRUE((*sliced)
                    ->Scan([&](int, const TableBatch& batch) {
                      EXPECT_LE(batch.num_rows(), batch_size);
                      for (size_t i = 0; i < batch.num_rows(); ++i) rows.push_back(RowKey((*sliced)->projection(), batch, i));
                      return absl::OkStatus();
                    })
                    .ok());
    EXPECT_EQ(rows, expected) << batch_size;
  }
}

TEST(TableScannerTest, RejectsUnknownTablesColumnsAndNonTagPredicates) {
  std::unique_ptr<TsFileReader> reader = Open("table_alltypes");
  ASSERT_NE(reader, nullptr);
  ScanOptions options;
  options.table = "nope";
  EXPECT_EQ(TableScanner::Create(*reader, options).status().code(), absl::StatusCode::kInvalidArgument);
  options.table = "t_all";
  options.tag_predicates = {TagPredicate{"f_int64", {"1"}}};
  EXPECT_EQ(TableScanner::Create(*reader, options).status().code(), absl::StatusCode::kInvalidArgument);
  options.tag_predicates.clear();
  options.num_threads = 0;
  EXPECT_EQ(TableScanner::Create(*reader, options).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(TableScannerTest, ConsumerErrorStopsTheScan) {
  std::unique_ptr<TsFileReader> reader = Open("table_many_devices");
  ASSERT_NE(reader, nullptr);
  for (const auto& [threads, ordered] : {std::pair{1, true}, std::pair{2, true}, std::pair{2, false}}) {
    ScanOptions options;
    options.table = "t_many";
    options.num_threads = threads;
    options.ordered = ordered;
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(*reader, options);
    ASSERT_TRUE(scanner.ok());
    std::mutex mutex;
    int calls = 0;
    absl::Status s = (*scanner)->Scan([&](int, const TableBatch&) {
      std::lock_guard<std::mutex> lock(mutex);
      return ++calls == 3 ? absl::AbortedError("enough") : absl::OkStatus();
    });
    EXPECT_EQ(s.code(), absl::StatusCode::kAborted);
    EXPECT_LT(calls, 100);
  }
}

// A corrupt chunk in the middle of the file: an ordered scan delivers every batch before it, in
// order, then the error — with any number of threads, exactly what one thread delivers.
TEST(TableScannerTest, OrderedScansDeliverEverythingBeforeADecodeErrorThenIt) {
  std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_many_devices.tsfile"));
  int64_t corrupt_at = 0;
  {
    absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
    ASSERT_TRUE(reader.ok());
    absl::StatusOr<DeviceIterator> devices = (*reader)->Devices("t_many");
    ASSERT_TRUE(devices.ok());
    for (int d = 0; d < 40; ++d) ASSERT_TRUE(devices->Next().ok());  // the 41st device
    absl::StatusOr<const DeviceEntry*> entry = devices->Next();
    ASSERT_TRUE(entry.ok() && *entry != nullptr);
    absl::StatusOr<std::vector<TimeseriesMetadata>> series = (*reader)->ReadTimeseries((*entry)->location);
    ASSERT_TRUE(series.ok() && !series->empty());
    corrupt_at = series->back().chunks.at(0).offset;
  }
  bytes[static_cast<size_t>(corrupt_at)] = '\x7F';  // not a chunk marker (§3.1)
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
  ASSERT_TRUE(reader.ok());
  auto deliver = [&](int threads) {
    ScanOptions options;
    options.table = "t_many";
    options.num_threads = threads;
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(**reader, options);
    EXPECT_TRUE(scanner.ok());
    std::vector<std::string> rows;
    absl::Status status = (*scanner)->Scan([&](int, const TableBatch& batch) {
      for (size_t i = 0; i < batch.num_rows(); ++i) rows.push_back(RowKey((*scanner)->projection(), batch, i));
      return absl::OkStatus();
    });
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
    EXPECT_NE(status.message().find(absl::StrCat(corrupt_at)), std::string::npos) << status;
    return rows;
  };
  const std::vector<std::string> one = deliver(1);
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(deliver(2), one);
  EXPECT_EQ(deliver(3), one);
}

}  // namespace
}  // namespace tsread
