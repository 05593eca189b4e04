// DuckDB's stable C extension API as every file of the extension sees it: the header with the
// extension's name, and the declaration of the API table that the entry point (extension.cc)
// defines and DuckDB fills when it loads the extension. Every call into DuckDB goes through that
// table: the extension links nothing from DuckDB. The unstable part of the API is not enabled
// (it would tie the binary to one DuckDB version).
#ifndef TSREAD_DUCKDB_DUCKDB_API_H_
#define TSREAD_DUCKDB_DUCKDB_API_H_

#define DUCKDB_EXTENSION_NAME tsread
#include "duckdb_extension.h"

DUCKDB_EXTENSION_EXTERN

#endif  // TSREAD_DUCKDB_DUCKDB_API_H_
