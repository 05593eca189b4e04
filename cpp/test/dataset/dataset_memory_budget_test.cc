// A dataset scan within one memory budget: the files of a dataset share it (the budget itself and
// single-file scans: cpp/test/read/memory_budget_test.cc).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "testing/row_key.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/read/memory_budget.h"

namespace tsread {
namespace {

namespace fs = std::filesystem;

TEST(BudgetedScanTest, ADatasetScanSharesOneBudgetAcrossFiles) {
  const fs::path dir = fs::temp_directory_path() / absl::StrCat("tsread_budget_", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (int i = 0; i < 3; ++i) {
    fs::copy_file(testing::FixturePath("table_many_devices.tsfile"), dir / absl::StrCat("f", i, ".tsfile"));
  }
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open({dir.string()});
  ASSERT_TRUE(dataset.ok()) << dataset.status();
  auto scan = [&](int threads, std::shared_ptr<MemoryBudget> budget) {
    DatasetScanOptions options;
    options.num_threads = threads;
    options.ordered = false;
    options.shared_memory_budget = std::move(budget);
    absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(**dataset, options);
    EXPECT_TRUE(scanner.ok()) << scanner.status();
    std::mutex mutex;
    std::vector<std::string> rows;
    EXPECT_TRUE((*scanner)
                    ->Scan([&](int, const TableBatch& batch) {
                      std::lock_guard<std::mutex> lock(mutex);
                      for (size_t r = 0; r < batch.num_rows(); ++r) rows.push_back(testing::RowKey(batch, r, true));
                      return absl::OkStatus();
                    })
                    .ok());
    std::sort(rows.begin(), rows.end());
    return rows;
  };
  const std::vector<std::string> expected = scan(1, nullptr);
  ASSERT_EQ(expected.size(), 300000u);  // 3 x the fixture's 100,000 rows
  auto roomy = std::make_shared<MemoryBudget>(uint64_t{1} << 40);
  EXPECT_EQ(scan(1, roomy), expected);
  auto tight = std::make_shared<MemoryBudget>(roomy->peak());
  EXPECT_EQ(scan(2, tight), expected);
  EXPECT_LE(tight->peak(), roomy->peak());
  EXPECT_EQ(tight->in_use(), 0u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tsread
