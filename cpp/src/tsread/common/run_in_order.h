// Independent tasks, numbered, run on threads so that a failure is reported as one thread running
// them in order would have met it: the aggregations cut into tasks (aggregate/aggregate_tasks.h,
// aggregate/iotdb_aggregate.h).
#ifndef TSREAD_COMMON_RUN_IN_ORDER_H_
#define TSREAD_COMMON_RUN_IN_ORDER_H_

#include <cstddef>
#include <functional>

#include "absl/status/status.h"

namespace tsread {

// Runs fn(index, worker) for each index in [0, n), each once, on up to `threads` threads (`worker`
// in [0, threads): 0 is the calling thread; fewer when threads cannot be had). Indexes are claimed
// in order and none starts after a failure, so every index before the first failing one has run:
// that failure (in index order) is returned.
absl::Status RunInOrder(size_t n, int threads, const std::function<absl::Status(size_t index, size_t worker)>& fn);

}  // namespace tsread

#endif  // TSREAD_COMMON_RUN_IN_ORDER_H_
