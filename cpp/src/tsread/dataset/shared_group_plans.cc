// Plans shared by a merged scan's parts (shared_group_plans.h).
#include "tsread/dataset/shared_group_plans.h"

#include "tsread/dataset/merged_scan.h"

namespace tsread {

SharedGroupPlans::SharedGroupPlans(const DatasetScanner& inner, const std::vector<MergeGroup>& groups, size_t parts)
    : inner_(&inner), groups_(&groups), parts_(parts), plans_(groups.size()) {
  for (size_t g = 0; g < groups.size(); ++g) {
    plans_[g].files.resize(groups[g].files.size());
    for (std::unique_ptr<Slot>& slot : plans_[g].files) slot = std::make_unique<Slot>();
  }
}

absl::StatusOr<const DatasetScanner::FileScan*> SharedGroupPlans::Plan(size_t group, size_t rank) {
  Slot& slot = *plans_[group].files[rank];
  // A part asking for a file another part is planning waits for that plan (call_once).
  std::call_once(slot.once, [&] { slot.plan = inner_->PlanFile((*groups_)[group].files[rank], 1); });
  if (!slot.plan.ok()) return slot.plan.status();
  return slot.plan->has_value() ? &**slot.plan : nullptr;
}

void SharedGroupPlans::Release(size_t group) {
  Group& g = plans_[group];
  if (g.released.fetch_add(1) + 1 < parts_) return;
  // The last part out: nobody holds these plans (their readers and scanners) any more.
  for (std::unique_ptr<Slot>& slot : g.files) slot->plan = std::nullopt;
}

}  // namespace tsread
