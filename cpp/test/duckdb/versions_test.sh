#!/usr/bin/env bash
# versions_test.sh SQL_HOST EXTENSION EXTENSION_1_2 CACHE FIXTURES — the extension loads into the
# oldest DuckDB the README claims for each of its two files (1.2.0: duckdb-1.2/, whose footer names
# linux_amd64_gcc4; 1.3.0: the main file, linux_amd64) and reads a fixture there; the newest
# (the npm libduckdb.so the other tests use) is checked by them. The libraries come from
# tools/setup.sh (CACHE/old/VERSION).
set -euo pipefail
host=$1 main=$2 old_ext=$3 cache=$4 fixtures=${TSREAD_FIXTURES:-$5}
file="$fixtures/table_alltypes.tsfile"
fail=0
check() {  # VERSION EXTENSION
  local version=$1 extension=$2
  local lib="$cache/old/$version/node_modules/@duckdb/node-bindings-linux-x64"
  if [[ ! -f $lib/libduckdb.so ]]; then
    echo "FAIL $version: $lib/libduckdb.so missing (tools/setup.sh fetches it)"
    fail=1
    return
  fi
  local out
  if ! out=$(LD_LIBRARY_PATH=$lib "$host" --csv --extension "$extension" "SELECT version()" \
               "SELECT count(*), count(DISTINCT id), max(f_int64) FROM read_tsfile('$file')" \
               "SELECT count(*) FROM tsfile_devices('$file')" 2>&1); then
    echo "FAIL $version: $out"
    fail=1
    return
  fi
  local want="v${version%%-*}"
  if ! grep -qx "$want" <<<"$out" || ! grep -qx "100000,19,9223372036854775807" <<<"$out" || ! grep -qx "20" <<<"$out"; then
    echo "FAIL $version: unexpected output:"
    echo "$out"
    fail=1
    return
  fi
  echo "ok $version ($extension)"
}
check 1.2.0-alpha.13 "$old_ext"
check 1.3.0-alpha.21 "$main"
exit $fail
