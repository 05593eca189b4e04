// tsfile_aggregate_tree(path [, start_time, end_time, time_unit, time_as]) and
// tsfile_last_tree(path [, ...]): one row per tree-model series (device, measurement) — its
// data_type, count, min, max, first, last (VARCHAR in the text form read_tsfile_tree gives values),
// sum (DOUBLE, as IoTDB's sum) and first/last times; or its last point (time, value) — IoTDB's
// `SELECT last * FROM root.**` — from statistics where they are exact (AggregateTree,
// tsread/aggregate/tree_aggregate.h). docs/duckdb.md.
#ifndef TSREAD_DUCKDB_TSFILE_TREE_AGGREGATES_H_
#define TSREAD_DUCKDB_TSFILE_TREE_AGGREGATES_H_

#include "tsread/duckdb/duckdb_api.h"

namespace tsread::duckdb_ext {

// False if DuckDB refused a registration.
bool RegisterTsfileAggregateTree(duckdb_connection connection);
bool RegisterTsfileLastTree(duckdb_connection connection);

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_TSFILE_TREE_AGGREGATES_H_
