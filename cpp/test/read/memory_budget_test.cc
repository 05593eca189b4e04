// MemoryBudget and MemoryHold, and scans held to one budget: the same rows as without a budget, the
// budget's peak never above its limit (two threads sharing a budget one thread needed whole: waits
// and back-offs), and a clear ResourceExhausted when a chunk group or a page alone needs more.
// Ordered scans with several threads account the batches they queue: the same rows in the same
// order within a budget one thread needs, queued bytes seen in the budget, none left after.
#include "tsread/read/memory_budget.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "testing/row_key.h"
#include "testing/table_schemas.h"
#include "tsread/io/random_access_file.h"
#include "tsread/read/ordered_batch_queue.h"
#include "tsread/read/table_scanner.h"
#include "tsread/read/tsfile_reader.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(MemoryBudgetTest, AcquiresWithinTheLimitOnly) {
  MemoryBudget budget(100);
  EXPECT_TRUE(budget.TryAcquire(60));
  EXPECT_FALSE(budget.TryAcquire(41));
  EXPECT_TRUE(budget.TryAcquire(40));
  EXPECT_EQ(budget.in_use(), 100u);
  budget.Release(70);
  EXPECT_EQ(budget.in_use(), 30u);
  EXPECT_EQ(budget.peak(), 100u);
}

TEST(MemoryBudgetTest, AcquireWaitingWaitsForARelease) {
  MemoryBudget budget(100);
  ASSERT_TRUE(budget.TryAcquire(80));
  std::atomic<bool> acquired{false};
  std::thread waiter([&] {
    budget.AcquireWaiting(50);
    acquired = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(acquired.load());  // 80 + 50 > 100: still waiting
  budget.Release(80);
  waiter.join();
  EXPECT_TRUE(acquired.load());
  EXPECT_EQ(budget.in_use(), 50u);
}

TEST(MemoryHoldTest, GrowsIntoTheBudgetAndSaysWhenItCannot) {
  MemoryBudget budget(100);
  MemoryHold a;
  MemoryHold b;
  a.Attach(&budget);
  b.Attach(&budget);
  ASSERT_TRUE(a.Grow(70).ok());
  // More than the whole budget by itself: an error no waiting can fix.
  absl::Status alone = b.Grow(101);
  EXPECT_EQ(alone.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(alone.message(), HasSubstr("more than the scan's memory budget of 100 bytes"));
  EXPECT_FALSE(IsMemoryBusy(alone));
  // Fits the budget, not what the others leave: busy, and wanted() says how much.
  absl::Status busy = b.Grow(40);
  EXPECT_TRUE(IsMemoryBusy(busy));
  EXPECT_EQ(b.wanted(), 40u);
  EXPECT_EQ(budget.in_use(), 70u);
  a.Shrink(50);
  EXPECT_EQ(budget.in_use(), 20u);
  b.WaitFor(b.wanted());  // credit: growing within it touches nothing
  EXPECT_EQ(budget.in_use(), 60u);
  ASSERT_TRUE(b.Grow(30).ok());
  EXPECT_EQ(budget.in_use(), 60u);
  b.ReleaseAll();
  a.ReleaseAll();
  EXPECT_EQ(budget.in_use(), 0u);
}

TEST(MemoryHoldTest, WithoutABudgetEverythingFits) {
  MemoryHold hold;
  EXPECT_FALSE(hold.enabled());
  EXPECT_TRUE(hold.Grow(uint64_t{1} << 62).ok());
}

// Every row of a scan as canonical text, sorted (workers deliver in any order).
std::vector<std::string> SortedRows(const TableScanner& scanner) {
  std::mutex mutex;
  std::vector<std::string> rows;
  absl::Status status = scanner.Scan([&](int, const TableBatch& batch) {
    std::lock_guard<std::mutex> lock(mutex);
    for (size_t r = 0; r < batch.num_rows(); ++r) rows.push_back(testing::RowKey(batch, r));
    return absl::OkStatus();
  });
  EXPECT_TRUE(status.ok()) << status;
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::unique_ptr<TableScanner> MakeScanner(const TsFileReader& reader, const std::string& table, int threads,
                                          bool ordered, std::shared_ptr<MemoryBudget> budget) {
  ScanOptions options;
  options.table = table;
  options.num_threads = threads;
  options.ordered = ordered;
  options.shared_memory_budget = std::move(budget);
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(reader, options);
  EXPECT_TRUE(scanner.ok()) << scanner.status();
  return scanner.ok() ? *std::move(scanner) : nullptr;
}

struct BudgetCase {
  const char* fixture;
  const char* table;
};

class BudgetedScanTest : public ::testing::TestWithParam<BudgetCase> {};

TEST_P(BudgetedScanTest, TwoThreadsShareWhatOneThreadNeededAndReadTheSameRows) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath(GetParam().fixture));
  ASSERT_TRUE(reader.ok()) << reader.status();
  const std::string table = GetParam().table;
  const std::vector<std::string> expected = SortedRows(*MakeScanner(**reader, table, 1, true, nullptr));
  ASSERT_FALSE(expected.empty());

  // What one thread holds at most, measured with a budget too large to bind.
  auto roomy = std::make_shared<MemoryBudget>(uint64_t{1} << 40);
  EXPECT_EQ(SortedRows(*MakeScanner(**reader, table, 1, true, roomy)), expected);
  const uint64_t one_thread = roomy->peak();
  ASSERT_GT(one_thread, 0u);
  EXPECT_EQ(roomy->in_use(), 0u);  // everything given back

  // Two threads in that much: they must wait for each other (or back off and reload).
  for (bool ordered : {true, false}) {
    auto tight = std::make_shared<MemoryBudget>(one_thread);
    EXPECT_EQ(SortedRows(*MakeScanner(**reader, table, 2, ordered, tight)), expected) << "ordered=" << ordered;
    EXPECT_LE(tight->peak(), one_thread);
    EXPECT_GT(tight->peak(), 0u);
    EXPECT_EQ(tight->in_use(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, BudgetedScanTest,
                         ::testing::Values(BudgetCase{"table_many_devices.tsfile", "t_many"},
                                           BudgetCase{"table_comp_ZSTD.tsfile", "t_comp"},
                                           BudgetCase{"table_alltypes.tsfile", "t_all"}),
                         [](const ::testing::TestParamInfo<BudgetCase>& info) { return std::string(info.param.table); });

// A table file made by the writer: `devices` devices of `rows` rows each in pages of 500 rows,
// three INT64 fields (a chunk group per 5,000 rows).
std::string ManyPagesFile(int devices, int rows) {
  const TableSchema schema =
      testing::TagAndFields("t", "id", {{"a", DataType::kInt64}, {"b", DataType::kInt64}, {"c", DataType::kInt64}});
  std::string bytes;
  TableWriterOptions options;
  options.max_points_per_page = 500;
  std::unique_ptr<TsFileWriter> writer = TsFileWriter::CreateInMemory(&bytes, schema, options).value();
  for (int d = 0; d < devices; ++d) {
    for (int first = 0; first < rows; first += 5000) {
      std::vector<int64_t> times;
      std::vector<ColumnValues> fields(3);
      for (int r = first; r < std::min(rows, first + 5000); ++r) {
        times.push_back(r);
        for (int f = 0; f < 3; ++f) fields[static_cast<size_t>(f)].int64s.push_back(int64_t{r} * (f + 1) + d);
      }
      EXPECT_TRUE(writer->WriteRows(writer->MakeDeviceId({absl::StrCat("d", 100 + d)}), times, fields).ok());
    }
  }
  EXPECT_TRUE(writer->Close().ok());
  return bytes;
}

// Every row of an ordered scan as canonical text, in delivery order.
std::vector<std::string> OrderedRows(const TableScanner& scanner, TableScanner::Workspace& workspace) {
  std::vector<std::string> rows;
  absl::Status status = scanner.Scan(
      [&](int worker, const TableBatch& batch) {
        EXPECT_EQ(worker, 0);
        for (size_t r = 0; r < batch.num_rows(); ++r) rows.push_back(testing::RowKey(batch, r));
        return absl::OkStatus();
      },
      workspace);
  EXPECT_TRUE(status.ok()) << status;
  return rows;
}

TEST(BudgetedScanTest, OrderedScansAccountTheBatchesTheyQueue) {
  const std::string bytes = ManyPagesFile(/*devices=*/24, /*rows=*/20000);
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(MemoryFileView(bytes, "many_pages.tsfile")).value();
  TableScanner::Workspace unbudgeted;
  const std::vector<std::string> expected = OrderedRows(*MakeScanner(*reader, "t", 1, true, nullptr), unbudgeted);
  ASSERT_EQ(expected.size(), 24u * 20000);
  EXPECT_EQ(unbudgeted.queued_bytes_peak(), 0u);  // nothing accounted without a budget

  auto roomy = std::make_shared<MemoryBudget>(uint64_t{1} << 40);
  TableScanner::Workspace one;
  EXPECT_EQ(OrderedRows(*MakeScanner(*reader, "t", 1, true, roomy), one), expected);
  const uint64_t one_thread = roomy->peak();
  ASSERT_GT(one_thread, 0u);
  EXPECT_EQ(one.queued_bytes_peak(), 0u);  // one thread queues nothing

  for (const int threads : {2, 3}) {
    // Room to queue: what the workers decode ahead is queued, and accounted in the budget.
    auto large = std::make_shared<MemoryBudget>(uint64_t{1} << 40);
    TableScanner::Workspace queued;
    EXPECT_EQ(OrderedRows(*MakeScanner(*reader, "t", threads, true, large), queued), expected) << threads;
    EXPECT_GT(queued.queued_bytes_peak(), 0u) << threads;
    EXPECT_GE(large->peak(), queued.queued_bytes_peak()) << threads;
    EXPECT_EQ(large->in_use(), 0u) << threads;
    // Just what one thread needs, and a little more: the queue competes with the decoders for the
    // budget — batches are handed over, queued batches dropped and decoded again — and the rows
    // are the same, in the same order, the budget never exceeded.
    for (const uint64_t limit : {one_thread, one_thread + one_thread / 2, 3 * one_thread}) {
      auto tight = std::make_shared<MemoryBudget>(limit);
      TableScanner::Workspace workspace;
      EXPECT_EQ(OrderedRows(*MakeScanner(*reader, "t", threads, true, tight), workspace), expected)
          << threads << " threads, budget " << limit;
      EXPECT_LE(tight->peak(), limit);
      EXPECT_LE(workspace.queued_bytes_peak(), limit);
      EXPECT_EQ(tight->in_use(), 0u);
    }
  }
}

// A consumer that fails mid-scan: whatever was queued (and accounted) is given back.
TEST(BudgetedScanTest, AnOrderedScanStoppedByItsConsumerGivesTheQueueBack) {
  const std::string bytes = ManyPagesFile(/*devices=*/12, /*rows=*/10000);
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(MemoryFileView(bytes, "many_pages.tsfile")).value();
  for (const int threads : {2, 3}) {
    auto budget = std::make_shared<MemoryBudget>(uint64_t{1} << 40);
    std::unique_ptr<TableScanner> scanner = MakeScanner(*reader, "t", threads, true, budget);
    size_t calls = 0;
    absl::Status status = scanner->Scan([&](int, const TableBatch&) {
      if (calls == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let the workers queue
      return ++calls == 30 ? absl::AbortedError("enough") : absl::OkStatus();
    });
    EXPECT_EQ(status.code(), absl::StatusCode::kAborted);
    EXPECT_EQ(budget->in_use(), 0u) << threads;
  }
}

TEST(OrderedBatchQueueTest, ABatchHoldsTheBytesOfItsValues) {
  const DeviceId device = DeviceId::Plain("t.d1");
  TableBatch batch;
  batch.device = &device;
  batch.times = {1, 2, 3};  // 24 bytes
  batch.columns.resize(2);
  batch.columns[0].type = DataType::kInt64;
  batch.columns[0].int64s = {4, 5, 6};  // 24 bytes
  batch.columns[0].validity = {0x07};   // 1
  batch.columns[1].type = DataType::kString;
  batch.columns[1].offsets = {0, 2, 2, 6};  // 16
  batch.columns[1].bytes = {'a', 'b', 'c', 'd', 'e', 'f'};  // 6
  batch.columns[1].validity = {0x05};                       // 1
  EXPECT_EQ(ordered_scan_internal::BatchBytes(batch), 72u);
  absl::Status over = ordered_scan_internal::BatchOverBudget(batch, 72, 64);
  EXPECT_EQ(over.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(over.message(), HasSubstr("a batch of 3 rows holds 72 bytes, more than the scan's memory budget of 64 bytes"));
}

// A thread about to wait runs the reclaimers first, and waits no longer once they freed enough.
TEST(MemoryBudgetTest, AWaiterRunsTheReclaimersFirst) {
  MemoryBudget budget(100);
  ASSERT_TRUE(budget.TryAcquire(90));
  std::atomic<int> runs{0};
  const int id = budget.AddReclaimer([&] {
    if (runs++ == 0) budget.Release(90);  // what a queue can drop without waiting
  });
  EXPECT_FALSE(budget.TryAcquireUnlessWaited(11));  // over the limit
  budget.AcquireWaiting(50);  // would wait forever without the reclaimer
  EXPECT_EQ(budget.in_use(), 50u);
  EXPECT_GE(runs.load(), 1);
  budget.RemoveReclaimer(id);
  budget.Release(50);
}

TEST(BudgetedScanTest, AChunkGroupLargerThanTheBudgetIsAClearError) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath("table_comp_ZSTD.tsfile"));
  ASSERT_TRUE(reader.ok());
  ScanOptions options;
  options.table = "t_comp";
  options.memory_budget = 64;  // smaller than any chunk
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(**reader, options);
  ASSERT_TRUE(scanner.ok());
  absl::Status status = (*scanner)->Scan([](int, const TableBatch&) { return absl::OkStatus(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(status.message(), HasSubstr("chunk group of the time chunk at offset"));
  EXPECT_THAT(status.message(), HasSubstr("more than the scan's memory budget of 64 bytes"));
}

TEST(BudgetedScanTest, APageLargerThanTheBudgetIsAClearError) {
  // One page of 100,000 constant rows: a few hundred bytes of chunks, megabytes once decoded.
  const TableSchema schema =
      testing::TagAndFields("t", "id", {{"a", DataType::kInt64}, {"b", DataType::kInt64}, {"c", DataType::kInt64}});
  std::string bytes;
  TableWriterOptions writer_options;
  writer_options.compression = Compression::kZstd;
  writer_options.max_points_per_page = 100000;
  writer_options.max_page_bytes = size_t{1} << 30;
  absl::StatusOr<std::unique_ptr<TsFileWriter>> writer = TsFileWriter::CreateInMemory(&bytes, schema, writer_options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  const size_t rows = 100000;
  std::vector<int64_t> times(rows);
  for (size_t r = 0; r < rows; ++r) times[r] = static_cast<int64_t>(r);
  std::vector<ColumnValues> fields(3);
  for (ColumnValues& v : fields) v.int64s.assign(rows, 7);
  ASSERT_TRUE((*writer)->WriteRows((*writer)->MakeDeviceId({"d"}), times, fields).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  ASSERT_LT(bytes.size(), 64u * 1024);

  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes, "one_page.tsfile"));
  ASSERT_TRUE(reader.ok()) << reader.status();
  ScanOptions options;
  options.table = "t";
  options.memory_budget = 256 * 1024;  // the chunks fit; the page's 100,000 decoded rows do not
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(**reader, options);
  ASSERT_TRUE(scanner.ok());
  absl::Status status = (*scanner)->Scan([](int, const TableBatch&) { return absl::OkStatus(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(status.message(), HasSubstr("page 0 of the chunk group"));
  EXPECT_THAT(status.message(), HasSubstr("more than the scan's memory budget of 262144 bytes"));

  // With room for it, the same scan reads every row.
  options.memory_budget = 64 * 1024 * 1024;
  scanner = TableScanner::Create(**reader, options);
  ASSERT_TRUE(scanner.ok());
  uint64_t seen = 0;
  ASSERT_TRUE((*scanner)->Scan([&](int, const TableBatch& batch) {
                   seen += batch.num_rows();
                   return absl::OkStatus();
                 }).ok());
  EXPECT_EQ(seen, rows);
}

}  // namespace
}  // namespace tsread
