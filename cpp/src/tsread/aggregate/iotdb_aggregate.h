// Aggregates of IoTDB data (iotdb/iotdb_dataset.h): the same answers as Aggregate and
// AggregateTree (table_aggregate.h, tree_aggregate.h), over the rows IoTDB's merge and deletions
// leave. A file's statistics describe its rows as written — points another file replaces, rows a
// deletion removes — so they answer only for a device whose sources the merged scan streams
// (nothing deleted, files disjoint in time: dataset/merged_scan.h, MergedStatistics); every other
// device's rows, and every tree-model point, are decoded.
#ifndef TSREAD_AGGREGATE_IOTDB_AGGREGATE_H_
#define TSREAD_AGGREGATE_IOTDB_AGGREGATE_H_

#include "absl/status/statusor.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/aggregate/tree_aggregate.h"
#include "tsread/iotdb/iotdb_dataset.h"

namespace tsread {

// Errors as Aggregate's, and those of IotdbDataset::ScanTable (a table in several databases).
// `threads` > 1: each time partition's devices in that many shares (MergedPart), aggregated at once
// by a builder each and merged in the scan's order (group_merge.h: FLOAT/DOUBLE sums of a device
// over several partitions may differ in the last bits from one thread's).
absl::StatusOr<TableAggregate> AggregateIotdb(const iotdb::IotdbDataset& dataset, const AggregateOptions& options,
                                              int threads = 1);
// Errors as AggregateTree's.
absl::StatusOr<TreeAggregate> AggregateIotdbTree(const iotdb::IotdbDataset& dataset,
                                                 const TreeAggregateOptions& options);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_IOTDB_AGGREGATE_H_
