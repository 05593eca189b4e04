#!/usr/bin/env bash
# Installs tsread's build and test dependencies from Debian packages, and DuckDB (npm) for the
# extension (idempotent: a quick no-op when everything is present).
set -euo pipefail
packages=(
  build-essential cmake pkg-config ccache
  libabsl-dev libgtest-dev libgmock-dev googletest libbenchmark-dev nlohmann-json3-dev
  liblz4-dev libzstd-dev libsnappy-dev zlib1g-dev liblzma-dev liblzo2-dev tzdata
  clang libclang-rt-dev
  python3-dev python3-pybind11 pybind11-dev python3-numpy python3-pandas python3-dask python3-distributed python3-pytest
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} > 0)); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# DuckDB for the extension (cmake/DuckdbExtension.cmake), from npm into a cache outside the source
# tree: duckdb@1.4.4 for its headers (duckdb.h, duckdb_extension.h), @duckdb/node-bindings-linux-x64
# for libduckdb.so (what the tests and tools/sql.sh load the extension into). Skipped without npm,
# or with TSREAD_SKIP_DUCKDB=1; TSREAD_DUCKDB_CACHE overrides the cache directory.
duckdb_cache=${TSREAD_DUCKDB_CACHE:-$HOME/.cache/tsread/npm}
if [[ ${TSREAD_SKIP_DUCKDB:-0} != 1 ]] && ! command -v npm >/dev/null; then
  echo "setup: installing npm (for DuckDB)" >&2
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
if [[ ${TSREAD_SKIP_DUCKDB:-0} != 1 ]] && command -v npm >/dev/null; then
  if [[ ! -f $duckdb_cache/node_modules/duckdb/src/duckdb/src/include/duckdb_extension.h ||
        ! -f $duckdb_cache/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so ]]; then
    echo "setup: fetching DuckDB (npm) into $duckdb_cache" >&2
    mkdir -p "$duckdb_cache"
    npm install --silent --no-audit --no-fund --ignore-scripts --prefix "$duckdb_cache" \
      duckdb@1.4.4 @duckdb/node-bindings-linux-x64@1.5.6-r.1 >/dev/null
  fi
  # The oldest DuckDB of each extension file the README claims (1.2.0: duckdb-1.2/, platform
  # linux_amd64_gcc4; 1.3.0: the main file), loaded by the duckdb_versions test.
  for old in 1.2.0-alpha.13 1.3.0-alpha.21; do
    if [[ ! -f $duckdb_cache/old/$old/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so ]]; then
      echo "setup: fetching libduckdb $old (npm) into $duckdb_cache/old/$old" >&2
      mkdir -p "$duckdb_cache/old/$old"
      npm install --silent --no-audit --no-fund --ignore-scripts --prefix "$duckdb_cache/old/$old" \
        "@duckdb/node-bindings-linux-x64@$old" >/dev/null
    fi
  done
fi
