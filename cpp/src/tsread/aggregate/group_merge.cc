// Builders' outputs merged in order (group_merge.h).
#include "tsread/aggregate/group_merge.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>

namespace tsread {
namespace {

// Adds group `from` (of a later builder) to `into` (of earlier ones).
void MergeGroup(GroupAggregate& into, GroupAggregate&& from) {
  if (from.rows > 0) {
    into.first_time = into.rows == 0 ? from.first_time : std::min(into.first_time, from.first_time);
    into.last_time = into.rows == 0 ? from.last_time : std::max(into.last_time, from.last_time);
  }
  into.rows += from.rows;
  for (size_t j = 0; j < into.columns.size(); ++j) into.columns[j].Merge(from.columns[j]);
}

void AddWork(AggregateWork& into, const AggregateWork& from) {
  into.chunks_from_statistics += from.chunks_from_statistics;
  into.chunks_read += from.chunks_read;
  into.pages_from_statistics += from.pages_from_statistics;
  into.pages_decoded += from.pages_decoded;
  into.page_tails_from_statistics += from.page_tails_from_statistics;
}

}  // namespace

void MergeBuilderOutputs(std::vector<BuilderOutput>& outputs, TableAggregate& out) {
  // Each device's groups (by table: every group is device "") in first-seen order; within a
  // builder a device's groups are adjacent and in bucket order.
  std::unordered_map<std::string, size_t> device_order;
  std::vector<std::vector<GroupAggregate*>> per_device;
  size_t count = 0;
  for (BuilderOutput& o : outputs) {
    AddWork(out.work, o.work);
    for (GroupAggregate& g : o.groups) {
      auto [it, added] = device_order.try_emplace(g.device, per_device.size());
      if (added) per_device.emplace_back();
      per_device[it->second].push_back(&g);
      ++count;
    }
  }
  out.groups.reserve(out.groups.size() + count);
  auto by_bucket = [](const GroupAggregate* a, const GroupAggregate* b) {
    return a->bucket.value_or(std::numeric_limits<int64_t>::min()) <
           b->bucket.value_or(std::numeric_limits<int64_t>::min());
  };
  for (std::vector<GroupAggregate*>& groups : per_device) {
    // Stable: groups of one bucket stay in builder order, as they merge.
    if (!std::is_sorted(groups.begin(), groups.end(), by_bucket)) {
      std::stable_sort(groups.begin(), groups.end(), by_bucket);
    }
    const size_t first = out.groups.size();
    for (GroupAggregate* g : groups) {
      if (out.groups.size() > first && !by_bucket(&out.groups.back(), g)) {
        MergeGroup(out.groups.back(), std::move(*g));
      } else {
        out.groups.push_back(std::move(*g));
      }
    }
  }
  for (BuilderOutput& o : outputs) o.groups.clear();
}

}  // namespace tsread
