// tsfile_last(path [, table_name, tags, time_unit, time_as, ignore_errors]): one row per device of a
// table — its TAG columns, `time` (the device's last time), then each FIELD column's latest
// non-null value — from the files' statistics where they are exact (AggregateByDevice,
// tsread/aggregate/device_aggregate.h), decoding the devices they cannot answer. docs/duckdb.md.
#ifndef TSREAD_DUCKDB_TSFILE_LAST_H_
#define TSREAD_DUCKDB_TSFILE_LAST_H_

#include "tsread/duckdb/duckdb_api.h"

namespace tsread::duckdb_ext {

// False if DuckDB refused the registration.
bool RegisterTsfileLast(duckdb_connection connection);

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_TSFILE_LAST_H_
