// The per-split queues of the ordered scan (ordered_scan.cc): decoding threads hand their batches
// to the calling thread in groups, at most kMaxGroups of them queued per split, and every
// delivered group's buffers go back to the decoders (TakeBatch). Internal to the ordered scan;
// not part of the public API.
#ifndef TSREAD_READ_ORDERED_BATCH_QUEUE_H_
#define TSREAD_READ_ORDERED_BATCH_QUEUE_H_

#include <cstddef>
#include <deque>
#include <vector>

#include "absl/status/status.h"
#include "tsread/read/table_reader.h"

namespace tsread {
namespace ordered_scan_internal {

// Batches travel in groups so that the lock and the wake-up are paid once per group.
using BatchGroup = std::vector<TableBatch>;
inline constexpr size_t kBatchesPerGroup = 8;
// The queue bound: most groups of one split queued at once.
inline constexpr size_t kMaxGroups = 2;

// One split's queue: the groups decoded and not yet delivered, and how the split ended.
struct SplitState {
  std::deque<BatchGroup> groups;
  bool done = false;
  absl::Status status;  // the split's decode error, delivered at its place in the order
};

// Moves the cursor's batch into `group`, giving the cursor the buffers of an already delivered
// batch in exchange (batches own all their values, so this is a swap). True when there was none
// to give and a new batch was made.
bool TakeBatch(TableBatch& from, BatchGroup& group, BatchGroup& spare);

}  // namespace ordered_scan_internal
}  // namespace tsread

#endif  // TSREAD_READ_ORDERED_BATCH_QUEUE_H_
