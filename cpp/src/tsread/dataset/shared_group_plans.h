// SharedGroupPlans: the plans of a merged scan's files (merged_scan.h), made once for the cursors
// that read parts of the scan on threads at once (merged_threads.h). Without it each part planned
// every file of a group — walked its device index — and the planning, a fifth of the scan on
// IoTDB's usual shape, did not shrink with more threads. Here each file is planned by the first
// part that asks; parts start their groups' files at different places, so they plan different
// files side by side, and the plans go once every part has left the group.
#ifndef TSREAD_DATASET_SHARED_GROUP_PLANS_H_
#define TSREAD_DATASET_SHARED_GROUP_PLANS_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/dataset/dataset_scanner.h"

namespace tsread {

struct MergeGroup;

class SharedGroupPlans {
 public:
  // For `parts` cursors of the scan whose sources `inner` reads, over `groups` (which outlive this).
  SharedGroupPlans(const DatasetScanner& inner, const std::vector<MergeGroup>& groups, size_t parts);

  // File `rank` of group `group` planned (DatasetScanner::PlanFile, one thread, no statistics
  // filter): nullptr when the file has no rows to give; the file's error otherwise. The same for
  // every part; valid until every part has called Release(group).
  absl::StatusOr<const DatasetScanner::FileScan*> Plan(size_t group, size_t rank);
  // One part is done with `group` (it holds nothing of its plans any more).
  void Release(size_t group);

 private:
  struct Slot {
    std::once_flag once;
    absl::StatusOr<std::optional<DatasetScanner::FileScan>> plan = std::nullopt;
  };
  struct Group {
    std::vector<std::unique_ptr<Slot>> files;
    std::atomic<size_t> released{0};
  };
  const DatasetScanner* inner_;
  const std::vector<MergeGroup>* groups_;
  size_t parts_;
  std::vector<Group> plans_;
};

}  // namespace tsread

#endif  // TSREAD_DATASET_SHARED_GROUP_PLANS_H_
