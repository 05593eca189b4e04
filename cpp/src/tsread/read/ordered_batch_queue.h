// The per-split queues of the ordered scan (ordered_scan.cc): decoding threads hand their batches
// to the calling thread in groups, at most kMaxGroups of them queued per split, and every
// delivered group's buffers go back to the decoders (TakeBatch). With a memory budget the queued
// batches' bytes are accounted in it (BatchBytes). Internal to the ordered scan; not part of the
// public API.
#ifndef TSREAD_READ_ORDERED_BATCH_QUEUE_H_
#define TSREAD_READ_ORDERED_BATCH_QUEUE_H_

#include <cstddef>
#include <cstdint>
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
  // With a memory budget: the bytes each queued group holds in it (parallel to `groups`; 0
  // without), and those of the group its decoder is filling.
  std::deque<uint64_t> group_bytes;
  uint64_t filling_bytes = 0;
  // How often its queued batches were dropped to free the budget: its decoder then starts the
  // split over.
  uint32_t evictions = 0;
  bool done = false;
  absl::Status status;  // the split's decode error, delivered at its place in the order
};

// The bytes of the values `batch` holds (times, validity, value arrays, offsets and bytes; the
// buffers' spare capacity is not counted): what queuing it keeps in memory.
uint64_t BatchBytes(const TableBatch& batch);

// ResourceExhausted for a batch of `bytes` that alone exceeds a scan's memory budget of `limit`:
// it could never be queued.
absl::Status BatchOverBudget(const TableBatch& batch, uint64_t bytes, uint64_t limit);

// Moves the cursor's batch into `group`, giving the cursor the buffers of an already delivered
// batch in exchange (batches own all their values, so this is a swap). True when there was none
// to give and a new batch was made.
bool TakeBatch(TableBatch& from, BatchGroup& group, BatchGroup& spare);

}  // namespace ordered_scan_internal
}  // namespace tsread

#endif  // TSREAD_READ_ORDERED_BATCH_QUEUE_H_
