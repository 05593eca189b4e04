// tsfile_aggregate(path [, table_name, bucket, start_time, end_time, end_time_exclusive, tags,
// time_unit, time_as, ignore_errors]): per device (and time bucket) of a table its TAG columns,
// `bucket` (the bucket's first time, NULL without buckets), `rows`, `first_time`, `last_time`,
// then per FIELD column `<c>_count`, `<c>_min`/`<c>_max` (numeric, DATE, TIMESTAMP),
// `<c>_first`/`<c>_last` and `<c>_sum` (INT32, INT64, BOOLEAN as HUGEINT; FLOAT, DOUBLE as
// DOUBLE) — tsread's Aggregate (tsread/aggregate/table_aggregate.h), answered from statistics
// wherever they are exact. Only the FIELD columns the query uses are aggregated.
#ifndef TSREAD_DUCKDB_TSFILE_AGGREGATE_H_
#define TSREAD_DUCKDB_TSFILE_AGGREGATE_H_

#include "tsread/duckdb/duckdb_api.h"

namespace tsread::duckdb_ext {

bool RegisterTsfileAggregate(duckdb_connection connection);

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_TSFILE_AGGREGATE_H_
