// PredicateWork: what a scan's value predicates (value_predicate.h) spared and cost — how many
// devices, chunk groups and pages their statistics ruled out before anything of them was read or
// decompressed, how many pages the statistics showed to match whole, and how many pages had their
// predicate columns decoded and evaluated. Shared by the threads of a scan and the scanners of a
// dataset's files.
#ifndef TSREAD_READ_PREDICATE_WORK_H_
#define TSREAD_READ_PREDICATE_WORK_H_

#include <atomic>
#include <cstdint>

namespace tsread {

struct PredicateCounts {
  uint64_t devices_skipped = 0;
  uint64_t chunk_groups_skipped = 0;
  uint64_t pages_skipped = 0;
  uint64_t pages_matched = 0;    // every row matched by statistics: nothing evaluated
  uint64_t pages_evaluated = 0;  // predicate columns decoded first and evaluated
  uint64_t pages_emptied = 0;    // of those, pages where no row matched (the rest never decoded)
};

class PredicateWork {
 public:
  void SkippedDevice() { devices_skipped_.fetch_add(1, std::memory_order_relaxed); }
  void SkippedChunkGroup() { chunk_groups_skipped_.fetch_add(1, std::memory_order_relaxed); }
  void SkippedPage() { pages_skipped_.fetch_add(1, std::memory_order_relaxed); }
  void MatchedPage() { pages_matched_.fetch_add(1, std::memory_order_relaxed); }
  void EvaluatedPage(bool emptied) {
    pages_evaluated_.fetch_add(1, std::memory_order_relaxed);
    if (emptied) pages_emptied_.fetch_add(1, std::memory_order_relaxed);
  }

  PredicateCounts counts() const {
    return PredicateCounts{devices_skipped_.load(), chunk_groups_skipped_.load(), pages_skipped_.load(),
                           pages_matched_.load(), pages_evaluated_.load(), pages_emptied_.load()};
  }

 private:
  std::atomic<uint64_t> devices_skipped_{0}, chunk_groups_skipped_{0}, pages_skipped_{0}, pages_matched_{0},
      pages_evaluated_{0}, pages_emptied_{0};
};

}  // namespace tsread

#endif  // TSREAD_READ_PREDICATE_WORK_H_
