// TakeBatch: a decoded batch into a group, in exchange for a delivered batch's buffers; BatchBytes,
// what a queued batch holds (ordered_batch_queue.h).
#include "tsread/read/ordered_batch_queue.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace tsread {
namespace ordered_scan_internal {

bool TakeBatch(TableBatch& from, BatchGroup& group, BatchGroup& spare) {
  const bool made = spare.empty();
  if (made) {
    group.emplace_back();
  } else {
    group.push_back(std::move(spare.back()));
    spare.pop_back();
  }
  TableBatch& to = group.back();
  to.device = from.device;
  to.projection = from.projection;
  to.file = from.file;
  std::swap(to.times, from.times);
  std::swap(to.columns, from.columns);
  return made;
}

uint64_t BatchBytes(const TableBatch& batch) {
  uint64_t bytes = batch.times.size() * sizeof(int64_t);
  for (const ColumnVector& c : batch.columns) {
    bytes += c.validity.size() + c.bools.size() + c.int32s.size() * sizeof(int32_t) +
             c.int64s.size() * sizeof(int64_t) + c.floats.size() * sizeof(float) + c.doubles.size() * sizeof(double) +
             c.offsets.size() * sizeof(int32_t) + c.bytes.size();
  }
  return bytes;
}

absl::Status BatchOverBudget(const TableBatch& batch, uint64_t bytes, uint64_t limit) {
  const std::string device = batch.device == nullptr ? std::string("?") : batch.device->ToString();
  return absl::ResourceExhaustedError(absl::StrCat("device ", device, ": a batch of ", batch.num_rows(), " rows holds ",
                                                   bytes, " bytes, more than the scan's memory budget of ", limit,
                                                   " bytes (ScanOptions::memory_budget)"));
}

}  // namespace ordered_scan_internal
}  // namespace tsread
