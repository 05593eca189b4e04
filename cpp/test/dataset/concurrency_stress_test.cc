// Concurrency stress (issue 13): many threads run independent scans at once on one shared reader
// and on one shared dataset — with their own worker threads, ordered and unordered, some within a
// memory budget as tight as one thread's peak (their threads back off and wait for each other),
// and consumers that cancel at random points. Every scan that runs to the end gives exactly the
// rows of a single-threaded scan with the same options; a cancelled one returns the consumer's
// error. Run under ThreadSanitizer in CI (tools/test.sh).
#include <algorithm>
#include <filesystem>
#include <limits>
#include <memory>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "testing/row_key.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/read/memory_budget.h"

namespace tsread {
namespace {

// The option sets the stress threads draw from (projection, time range, tag predicates).
std::vector<ScanOptions> OptionSets() {
  std::vector<ScanOptions> sets(5);
  for (ScanOptions& o : sets) o.table = "t_comp";
  sets[1].columns = {"f_double", "id"};
  sets[2].time_range = TimeRange{1700000500000, 1700001500000};
  sets[3].tag_predicates = {TagPredicate{"region", {"north"}}};
  sets[4].columns = {"f_string", "f_int32", "region"};
  sets[4].tag_predicates = {TagPredicate{"id", {"dev_1", "dev_3"}}};
  sets[4].time_range = TimeRange{1700000000000, 1700002000000};
  return sets;
}

// What one scan gave: its status, its rows (sorted) and the most its memory budget held.
struct Outcome {
  absl::Status status;
  std::vector<std::string> rows;
  uint64_t budget_peak = 0;
};

// Runs `scan` with a consumer that fails with Aborted after `cancel_after` batches (never when
// negative), collecting row keys from any worker.
template <typename ScanFn>
Outcome Collect(ScanFn scan, int cancel_after, bool with_file) {
  Outcome outcome;
  std::mutex mutex;
  int batches = 0;
  outcome.status = scan([&](int, const TableBatch& batch) -> absl::Status {
    std::lock_guard<std::mutex> lock(mutex);
    if (cancel_after >= 0 && batches++ >= cancel_after) return absl::AbortedError("consumer stopped");
    for (size_t r = 0; r < batch.num_rows(); ++r) outcome.rows.push_back(testing::RowKey(batch, r, with_file));
    return absl::OkStatus();
  });
  std::sort(outcome.rows.begin(), outcome.rows.end());
  return outcome;
}

// Runs `threads` threads of `scans` random scans each through `run(options, cancel_after)`, and
// checks each against `reference[set]`; a third of them within a budget of `peaks[set]` bytes.
template <typename RunFn>
void Stress(const std::vector<ScanOptions>& sets, const std::vector<std::vector<std::string>>& reference,
            const std::vector<uint64_t>& peaks, int threads, int scans, RunFn run) {
  std::vector<std::thread> pool;
  std::mutex failures_mutex;
  std::vector<std::string> failures;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::mt19937 random(1234 + t);
      for (int i = 0; i < scans; ++i) {
        const size_t set = random() % sets.size();
        ScanOptions options = sets[set];
        options.num_threads = 1 + static_cast<int>(random() % 3);
        options.ordered = random() % 2 == 0;
        options.batch_size = random() % 3 == 0 ? 257 : 0;
        if (random() % 3 == 0) options.memory_budget = peaks[set];
        const int cancel_after = random() % 3 == 0 ? static_cast<int>(random() % 20) : -1;
        Outcome outcome = run(options, cancel_after);
        std::string failure;
        if (cancel_after < 0 && !outcome.status.ok()) {
          failure = absl::StrCat("set ", set, ": ", outcome.status.ToString());
        } else if (cancel_after < 0 && outcome.rows != reference[set]) {
          failure = absl::StrCat("set ", set, ": ", outcome.rows.size(), " rows, expected ", reference[set].size());
        } else if (cancel_after >= 0 && !outcome.status.ok() && outcome.status.code() != absl::StatusCode::kAborted) {
          failure = absl::StrCat("set ", set, " cancelled: ", outcome.status.ToString());
        }
        if (!failure.empty()) {
          std::lock_guard<std::mutex> lock(failures_mutex);
          failures.push_back(failure);
        }
      }
    });
  }
  for (std::thread& t : pool) t.join();
  EXPECT_TRUE(failures.empty()) << failures.size() << " failures, first: " << failures.front();
}

TEST(ConcurrencyStressTest, IndependentScansOnOneSharedReader) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader =
      TsFileReader::Open(testing::FixturePath("table_comp_LZ4.tsfile"));
  ASSERT_TRUE(reader.ok()) << reader.status();
  const std::vector<ScanOptions> sets = OptionSets();
  auto run = [&](ScanOptions options, int cancel_after) {
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(**reader, options);
    if (!scanner.ok()) return Outcome{scanner.status(), {}};
    return Collect([&](const auto& consume) { return (*scanner)->Scan(consume); }, cancel_after, false);
  };
  std::vector<std::vector<std::string>> reference;
  std::vector<uint64_t> peaks;
  for (ScanOptions options : sets) {
    // One thread, its memory accounted without a limit: the tightest budget a scan can have.
    auto accounting = std::make_shared<MemoryBudget>(std::numeric_limits<uint64_t>::max());
    options.shared_memory_budget = accounting;
    Outcome one = run(options, -1);
    one.budget_peak = accounting->peak();
    ASSERT_GT(one.budget_peak, 0u);
    ASSERT_TRUE(one.status.ok()) << one.status;
    ASSERT_FALSE(one.rows.empty());
    reference.push_back(std::move(one.rows));
    peaks.push_back(one.budget_peak);
  }
  Stress(sets, reference, peaks, 6, 12, run);
}

TEST(ConcurrencyStressTest, IndependentScansOnOneSharedDataset) {
  const std::string dir = (std::filesystem::temp_directory_path() / absl::StrCat("tsread_stress_", ::getpid())).string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const char* stem : {"table_comp_LZ4", "table_comp_ZSTD", "table_comp_GZIP"}) {
    std::ofstream(absl::StrCat(dir, "/", stem, ".tsfile"), std::ios::binary)
        << testing::ReadWholeFile(testing::FixturePath(absl::StrCat(stem, ".tsfile")));
  }
  DatasetOptions dataset_options;
  dataset_options.max_open_files = 2;  // fewer places than scans: files are closed and reopened under load
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open({dir}, dataset_options);
  ASSERT_TRUE(dataset.ok()) << dataset.status();
  const std::vector<ScanOptions> sets = OptionSets();
  auto run = [&](ScanOptions options, int cancel_after) {
    DatasetScanOptions dataset_scan;
    static_cast<ScanOptions&>(dataset_scan) = options;
    absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(**dataset, dataset_scan);
    if (!scanner.ok()) return Outcome{scanner.status(), {}};
    return Collect([&](const auto& consume) { return (*scanner)->Scan(consume); }, cancel_after, true);
  };
  std::vector<std::vector<std::string>> reference;
  std::vector<uint64_t> peaks;
  for (ScanOptions options : sets) {
    // One thread, its memory accounted without a limit: the tightest budget a scan can have.
    auto accounting = std::make_shared<MemoryBudget>(std::numeric_limits<uint64_t>::max());
    options.shared_memory_budget = accounting;
    Outcome one = run(options, -1);
    one.budget_peak = accounting->peak();
    ASSERT_GT(one.budget_peak, 0u);
    ASSERT_TRUE(one.status.ok()) << one.status;
    reference.push_back(std::move(one.rows));
    peaks.push_back(one.budget_peak);
  }
  Stress(sets, reference, peaks, 6, 8, run);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tsread
