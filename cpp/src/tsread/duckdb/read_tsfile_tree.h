// read_tsfile_tree(path, ...): the tree-model points of TsFiles in long form — device,
// measurement, time, value (VARCHAR, the text `tsread cat --tree` prints) — one row per non-null
// point, by file, then device string, measurement and time (docs/duckdb.md).
#ifndef TSREAD_DUCKDB_READ_TSFILE_TREE_H_
#define TSREAD_DUCKDB_READ_TSFILE_TREE_H_

#include "tsread/duckdb/duckdb_api.h"

namespace tsread::duckdb_ext {

// Registers read_tsfile_tree on `connection`; false if DuckDB refused it.
bool RegisterReadTsfileTree(duckdb_connection connection);

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_READ_TSFILE_TREE_H_
