// The steps of a table aggregate shared by its two sources of rows — a dataset's files
// (table_aggregate.h) and IoTDB's merged rows (iotdb_aggregate.h).
#ifndef TSREAD_AGGREGATE_AGGREGATE_SHAPE_H_
#define TSREAD_AGGREGATE_AGGREGATE_SHAPE_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/aggregate/group_builder.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/read/table_scanner.h"

namespace tsread {

// The result's shape for a table of schema `schema`: its name, the aggregated FIELD columns and
// the TAG columns, without groups. InvalidArgument for a column that is not a FIELD column or a
// negative bucket width.
absl::StatusOr<TableAggregate> AggregateShape(const TableSchema& schema, const AggregateOptions& options);

// The shape for the dataset's table named by options.table (its only table when empty), from its
// reconciled schema.
absl::StatusOr<TableAggregate> DatasetAggregateShape(const Dataset& dataset, const AggregateOptions& options);

// `conditions` (their top-level ANDs taken apart) split into those that name devices by one of
// `shape`'s TAG columns, appended to `tags` as tag predicates (read/tag_alternatives.h: statistics
// stay usable), and the rest, appended to `values`.
void SplitConditions(const TableAggregate& shape, const std::vector<PredicateExpr>& conditions,
                     std::vector<TagPredicate>& tags, std::vector<PredicateExpr>& values);

// The scan of a dataset that reads what `shape` aggregates: its FIELD columns (or, without any, a
// TAG column, which costs no chunk), the time range, tag and value predicates; no statistics filter
// (each file's scan is given its GroupBuilder where no value predicate is).
DatasetScanOptions AggregateScanOptions(const TableAggregate& shape, const AggregateOptions& options);

// Part `part` of `parts` of file `file`'s devices (a run of its device index) aggregated into
// `builder` (the scan's statistics filter) through `cursor`; nothing when the file cannot
// contribute rows. Errors name the file.
absl::Status AggregateFileInto(const DatasetScanner& scanner, size_t file, size_t part, size_t parts,
                               GroupBuilder& builder, std::optional<TableScanner::Cursor>& cursor);

// Adds the empty buckets options.fill_empty_buckets asks for (AggregateOptions).
absl::Status FillEmptyBuckets(const AggregateOptions& options, TableAggregate& out);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_AGGREGATE_SHAPE_H_
