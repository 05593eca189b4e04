// A merged scan on threads (merged_threads.h).
#include "tsread/dataset/merged_threads.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "tsread/dataset/shared_group_plans.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// Reads part `part` of `parts` to consume(part, batch) until its end, an error, or `stop`.
absl::Status ReadPart(const MergedScanner& scanner, size_t part, size_t parts, SharedGroupPlans* shared,
                      const std::atomic<bool>& stop, const std::function<absl::Status(int, TableBatch&)>& consume) {
  TSREAD_ASSIGN_OR_RETURN(MergedScanner::Cursor cursor, scanner.OpenCursor(MergedPart{part, parts}, shared));
  while (!stop.load(std::memory_order_relaxed)) {
    TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, cursor.Next());
    if (batch == nullptr) return absl::OkStatus();
    TSREAD_RETURN_IF_ERROR(consume(static_cast<int>(part), *batch));
  }
  return absl::OkStatus();  // another part failed: its error is the one returned
}

}  // namespace

absl::Status ScanMergedOnThreads(const MergedScanner& scanner, int threads,
                                 const std::function<absl::Status(int worker, TableBatch& batch)>& consume) {
  const size_t parts = static_cast<size_t>(std::max(threads, 1));
  std::atomic<bool> stop{false};
  if (parts == 1) return ReadPart(scanner, 0, 1, nullptr, stop, consume);
  SharedGroupPlans shared(scanner.inner(), scanner.groups(), parts);
  std::vector<absl::Status> results(parts);
  auto run = [&](size_t part) {
    results[part] = ReadPart(scanner, part, parts, &shared, stop, consume);
    if (!results[part].ok()) stop.store(true);
  };
  std::vector<std::thread> pool;
  for (size_t part = 1; part < parts; ++part) pool.emplace_back(run, part);
  run(0);
  for (std::thread& t : pool) t.join();
  for (absl::Status& status : results) {
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace tsread
