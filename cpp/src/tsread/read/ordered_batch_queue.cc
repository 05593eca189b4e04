// TakeBatch: a decoded batch into a group, in exchange for a delivered batch's buffers
// (ordered_batch_queue.h).
#include "tsread/read/ordered_batch_queue.h"

#include <utility>

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

}  // namespace ordered_scan_internal
}  // namespace tsread
