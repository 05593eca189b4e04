// Numbered tasks on threads (run_in_order.h).
#include "tsread/common/run_in_order.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>
#include <vector>

namespace tsread {

absl::Status RunInOrder(size_t n, int threads, const std::function<absl::Status(size_t index, size_t worker)>& fn) {
  std::vector<absl::Status> status(n);
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  auto work = [&](size_t worker) {
    while (!failed.load()) {
      const size_t i = next++;
      if (i >= n) return;
      status[i] = fn(i, worker);
      if (!status[i].ok()) failed = true;
    }
  };
  std::vector<std::thread> pool;
  const size_t workers = std::min<size_t>(static_cast<size_t>(std::max(threads, 1)), n);
  for (size_t w = 1; w < workers; ++w) {
    try {
      pool.emplace_back(work, w);
    } catch (const std::system_error&) {
      break;  // no thread to be had: the others (this one at least) run every index
    }
  }
  work(0);
  for (std::thread& t : pool) t.join();
  for (const absl::Status& s : status) {
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace tsread
