// RunInOrder: every index once, on the threads asked for, and the first failure in index order.
#include "tsread/common/run_in_order.h"

#include <atomic>
#include <mutex>
#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

TEST(RunInOrderTest, EveryIndexRunsOnceOnTheWorkersAsked) {
  for (int threads : {1, 2, 4}) {
    std::vector<std::atomic<int>> runs(100);
    std::mutex mutex;
    std::set<size_t> workers;
    absl::Status status = RunInOrder(runs.size(), threads, [&](size_t i, size_t worker) {
      ++runs[i];
      std::lock_guard<std::mutex> lock(mutex);
      workers.insert(worker);
      return absl::OkStatus();
    });
    ASSERT_TRUE(status.ok()) << status;
    for (const std::atomic<int>& r : runs) EXPECT_EQ(r.load(), 1);
    // Which workers took indexes is up to the scheduler; each is one of those asked for.
    EXPECT_LT(*workers.rbegin(), static_cast<size_t>(threads));
    if (threads == 1) EXPECT_EQ(workers, std::set<size_t>{0});
  }
}

TEST(RunInOrderTest, TheFirstFailureInIndexOrderIsReturnedAndEveryIndexBeforeItRan) {
  for (int threads : {1, 3}) {
    std::vector<std::atomic<int>> runs(50);
    absl::Status status = RunInOrder(runs.size(), threads, [&](size_t i, size_t) {
      ++runs[i];
      if (i == 20) return absl::DataLossError("twenty");
      if (i == 30) return absl::NotFoundError("thirty");  // later in order: never the answer
      return absl::OkStatus();
    });
    EXPECT_EQ(status, absl::DataLossError("twenty")) << threads;
    for (size_t i = 0; i <= 20; ++i) EXPECT_EQ(runs[i].load(), 1) << i;
  }
}

TEST(RunInOrderTest, NothingToRun) {
  EXPECT_TRUE(RunInOrder(0, 4, [](size_t, size_t) { return absl::InternalError("never"); }).ok());
}

}  // namespace
}  // namespace tsread
