// tsfile_metadata(path) and tsfile_devices(path): what TsFiles hold, from their metadata alone
// (device index, series metadata, chunk statistics; no data page is read). docs/duckdb.md.
#ifndef TSREAD_DUCKDB_METADATA_FUNCTIONS_H_
#define TSREAD_DUCKDB_METADATA_FUNCTIONS_H_

#include "tsread/duckdb/duckdb_api.h"

namespace tsread::duckdb_ext {

// One row per file x table x column (the time column first), then per file x tree-model
// measurement x type; false if DuckDB refused the registration.
bool RegisterTsfileMetadata(duckdb_connection connection);
// One row per file x device: its table, id, tag values (a MAP), rows, points and time range.
bool RegisterTsfileDevices(duckdb_connection connection);

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_METADATA_FUNCTIONS_H_
