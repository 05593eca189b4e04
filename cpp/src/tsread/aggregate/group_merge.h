// Aggregates made by several GroupBuilders (group_builder.h) at once — tasks of one aggregation
// on threads (aggregate_tasks.h, iotdb_aggregate.h) — merged into the one answer.
#ifndef TSREAD_AGGREGATE_GROUP_MERGE_H_
#define TSREAD_AGGREGATE_GROUP_MERGE_H_

#include <vector>

#include "tsread/aggregate/table_aggregate.h"

namespace tsread {

// What one builder made: its groups (a device's adjacent and in bucket order) and its work.
struct BuilderOutput {
  std::vector<GroupAggregate> groups;
  AggregateWork work;
};

// The outputs of builders that read one aggregation's rows in turn, in that order, into `out`:
// work added; devices in first-seen order; a device's groups by bucket, those of one bucket
// merged in builder order (row counts and time spans added, columns ColumnAggregate::Merge: the
// earlier builder's first value wins a tie, the later's last). FLOAT/DOUBLE sums of a group that
// spans builders may differ in the last bits from one builder's (partial sums added in another
// order). The outputs' groups are spent.
void MergeBuilderOutputs(std::vector<BuilderOutput>& outputs, TableAggregate& out);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_GROUP_MERGE_H_
