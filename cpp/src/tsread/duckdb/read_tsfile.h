// read_tsfile(path, ...): a table-model table of one TsFile or a dataset of them as a DuckDB
// table function (docs/duckdb.md), with projection pushdown, parallel splits, time-range and
// tag pushdown through named parameters.
#ifndef TSREAD_DUCKDB_READ_TSFILE_H_
#define TSREAD_DUCKDB_READ_TSFILE_H_

#include "tsread/duckdb/duckdb_api.h"

namespace tsread::duckdb_ext {

// Registers read_tsfile on `connection`; false if DuckDB refused it.
bool RegisterReadTsfile(duckdb_connection connection);

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_READ_TSFILE_H_
