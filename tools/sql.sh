#!/usr/bin/env bash
# tools/sql.sh [--csv] [--timer] [--threads N] "SQL" ["SQL"...] — runs SQL in DuckDB (the npm libduckdb.so)
# with the tsread extension loaded, printing each result as a table (or CSV). Uses the release
# build (build/release/tsread_sql and tsread.duckdb_extension; tools/build.sh release builds them
# when tools/setup.sh has fetched DuckDB). $TSREAD_BUILD_DIR overrides the build directory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build=${TSREAD_BUILD_DIR:-$root/build/release}
if [[ ! -x $build/tsread_sql || ! -f $build/tsread.duckdb_extension ]]; then
  echo "sql.sh: $build/tsread_sql or tsread.duckdb_extension missing: run tools/setup.sh, then tools/build.sh release" >&2
  exit 2
fi
exec "$build/tsread_sql" --extension "$build/tsread.duckdb_extension" "$@"
