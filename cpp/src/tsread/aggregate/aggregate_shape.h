// The steps of a table aggregate shared by its two sources of rows — a dataset's files
// (table_aggregate.h) and IoTDB's merged rows (iotdb_aggregate.h).
#ifndef TSREAD_AGGREGATE_AGGREGATE_SHAPE_H_
#define TSREAD_AGGREGATE_AGGREGATE_SHAPE_H_

#include "absl/status/statusor.h"
#include "tsread/aggregate/table_aggregate.h"

namespace tsread {

// The result's shape for a table of schema `schema`: its name, the aggregated FIELD columns and
// the TAG columns, without groups. InvalidArgument for a column that is not a FIELD column or a
// negative bucket width.
absl::StatusOr<TableAggregate> AggregateShape(const TableSchema& schema, const AggregateOptions& options);

// Adds the empty buckets options.fill_empty_buckets asks for (AggregateOptions).
absl::Status FillEmptyBuckets(const AggregateOptions& options, TableAggregate& out);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_AGGREGATE_SHAPE_H_
