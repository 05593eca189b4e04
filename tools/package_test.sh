#!/usr/bin/env bash
# tools/package_test.sh [--static-only] — the "install + examples" stage of tools/test.sh: checks
# that tsread links as documented, from the outside, as a user would use it. Needs build/release.
#  1. static package: installs build/release (static libraries) into build/install-static;
#  2. shared package: builds the libraries as shared libraries plus the CLI (tools/build.sh
#     shared: no tests, no benchmarks), installs them and moves the prefix to
#     build/install-shared (the package must be relocatable), runs the installed CLI;
#  and for each package builds every program of examples/ twice — (a) with CMake,
#  find_package(tsread), no C++ standard set; (b) with a plain `c++ FILE $(pkg-config ...)`
#  (`--static` for the static package) — and runs each on the fixture table_multi.tsfile, comparing
#  its output with examples/NAME/expected.txt. The static package is also linked into a shared
#  object (its libraries must be position-independent). The README/docs snippets are checked to be
#  the examples' code first (tools/check_snippets.sh). --static-only skips the shared package.
set -euo pipefail
cd "$(dirname "$0")/.."
static_only=0
for arg in "$@"; do
  case "$arg" in
    --static-only) static_only=1 ;;
    *) echo "usage: tools/package_test.sh [--static-only]" >&2; exit 1 ;;
  esac
done
jobs=$(nproc 2>/dev/null || echo 2)
file=$(realpath "${TSREAD_FIXTURES:-../shared/fixtures}/table_multi.tsfile")
examples=(row_count scan_table arrow_stream)

tools/check_snippets.sh

# run_examples DIR LABEL: runs the example binaries in DIR on the fixture, each output against
# examples/NAME/expected.txt.
run_examples() {
  local dir=$1 label=$2 name
  for name in "${examples[@]}"; do
    local args=("$file")
    case $name in
      scan_table) args+=(tbl_b region voltage) ;;
      arrow_stream) args+=(tbl_c) ;;
    esac
    if ! diff -u "examples/$name/expected.txt" <("$dir/$name" "${args[@]}"); then
      echo "package_test: $label: $name printed something else than examples/$name/expected.txt" >&2
      exit 1
    fi
  done
  echo "  $label: ${examples[*]}: output as expected"
}

# build_examples PREFIX KIND: builds and runs the examples against the package in PREFIX
# (KIND: static or shared), with CMake and with pkg-config.
build_examples() {
  local prefix=$PWD/$1 kind=$2 out=build/examples-$2 name
  rm -rf "$out"
  cmake -S examples -B "$out/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$out/cmake" -j"$jobs" >/dev/null
  run_examples "$out/cmake" "$kind package, CMake"

  local pc=(env PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name tsread.pc)")" pkg-config)
  local flags
  if [[ $kind == static ]]; then
    flags=$("${pc[@]}" --static --cflags --libs tsread)
  else
    # A shared package outside the loader's default paths: the program records where it is.
    flags="$("${pc[@]}" --cflags --libs tsread) -Wl,-rpath,$("${pc[@]}" --variable=libdir tsread)"
  fi
  mkdir -p "$out/pkg-config"
  for name in "${examples[@]}"; do
    # shellcheck disable=SC2086  # the flags are words
    c++ -O2 "examples/$name/$name.cc" -o "$out/pkg-config/$name" $flags
  done
  run_examples "$out/pkg-config" "$kind package, pkg-config"
  if [[ $kind == static ]]; then
    # shellcheck disable=SC2086
    c++ -O2 -shared -fPIC "examples/scan_table/scan_table.cc" -o "$out/libscan_table.so" $flags -Wl,--no-undefined
    echo "  static package: links into a shared object"
  fi
}

# c_abi_consumer PREFIX KIND: the C ABI from the package in PREFIX, as a C program uses it: the
# header compiles as C99 with -pedantic, and examples/arrow_to_duckdb (a plain C program, built with
# `pkg-config tsread_c` only) scans every table fixture, every tree fixture's points and the IoTDB
# data directory into DuckDB through duckdb_arrow_scan, its rows compared there with the reference CSVs.
c_abi_consumer() {
  local prefix=$PWD/$1 kind=$2 out=build/examples-$2/c
  local duckdb=${TSREAD_DUCKDB_CACHE:-$HOME/.cache/tsread/npm}/node_modules
  local duckdb_include=$duckdb/duckdb/src/duckdb/src/include duckdb_lib=$duckdb/@duckdb/node-bindings-linux-x64
  local pc=(env PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name tsread_c.pc)")" pkg-config)
  local flags
  flags="$("${pc[@]}" --cflags --libs tsread_c) -Wl,-rpath,$("${pc[@]}" --variable=libdir tsread_c)"
  mkdir -p "$out"
  # shellcheck disable=SC2086
  printf '#include <tsread/tsread.h>\nint main(void) { return tsread_version()[0] == 0; }\n' |
    cc -std=c99 -pedantic -Wall -Wextra -Werror -x c - -o "$out/version" $flags
  "$out/version"
  if [[ ! -f $duckdb_include/duckdb.h || ! -f $duckdb_lib/libduckdb.so ]]; then
    echo "  $kind package: C ABI links; DuckDB not in the npm cache (tools/setup.sh): arrow_to_duckdb skipped"
    return
  fi
  # shellcheck disable=SC2086
  cc -std=c99 -O2 -Wall -Wextra -Werror examples/arrow_to_duckdb/arrow_to_duckdb.c -o "$out/arrow_to_duckdb" $flags \
    -I"$duckdb_include" -L"$duckdb_lib" -lduckdb -Wl,-rpath,"$duckdb_lib"
  local fixtures csv name stem checked=0
  fixtures=$(realpath "${TSREAD_FIXTURES:-../shared/fixtures}")
  for csv in "$fixtures"/table_*.csv; do
    name=$(basename "$csv" .csv)
    stem=${name%.*}
    "$out/arrow_to_duckdb" "${name##*.}" "$csv" "$fixtures/$stem.tsfile" >/dev/null ||
      { echo "package_test: $kind package: arrow_to_duckdb: $name differs from its CSV" >&2; exit 1; }
    checked=$((checked + 1))
  done
  "$out/arrow_to_duckdb" --any-order t "$fixtures/iotdb_datadir/expected/t.csv" "$fixtures/iotdb_datadir" >/dev/null ||
    { echo "package_test: $kind package: arrow_to_duckdb: IoTDB data differs from expected/t.csv" >&2; exit 1; }
  # Tree-model points (tsread_scan_tree): every tree fixture and IoTDB data's tree database.
  for csv in "$fixtures"/*.tree.csv "$fixtures/iotdb_datadir/expected/tree.csv"; do
    name=$(basename "$csv" .tree.csv)
    input=$fixtures/$name.tsfile
    [[ $csv == */iotdb_datadir/* ]] && input=$fixtures/iotdb_datadir
    "$out/arrow_to_duckdb" --tree "$csv" "$input" >/dev/null ||
      { echo "package_test: $kind package: arrow_to_duckdb --tree: $input differs from $csv" >&2; exit 1; }
    checked=$((checked + 1))
  done
  echo "  $kind package: C ABI: $checked fixture tables and tree files, and IoTDB data, through duckdb_arrow_scan equal their CSVs"
}

rm -rf build/install-static
cmake --install build/release --prefix build/install-static >/dev/null
build/install-static/bin/tsread info "$file" >/dev/null
build_examples build/install-static static
c_abi_consumer build/install-static static

if ((static_only == 0)); then
  tools/build.sh shared >/dev/null
  rm -rf build/install-shared build/install-shared.tmp
  cmake --install build/shared --prefix build/install-shared.tmp >/dev/null
  mv build/install-shared.tmp build/install-shared
  # The installed CLI must find the installed (moved) libraries by itself.
  loaded=$(ldd build/install-shared/bin/tsread | awk '/libtsread_read\.so/ { print $3 }')
  installed=$(dirname "$(find build/install-shared -name 'libtsread_read.so*' | head -n 1)")
  if [[ -z $loaded || $(realpath "$(dirname "$loaded")") != $(realpath "$installed") ]]; then
    ldd build/install-shared/bin/tsread >&2
    echo "package_test: the installed CLI does not load the installed libtsread_read.so" >&2
    exit 1
  fi
  build/install-shared/bin/tsread info "$file" >/dev/null
  echo "  shared package: the installed CLI runs after moving the prefix"
  build_examples build/install-shared shared
  c_abi_consumer build/install-shared shared
fi
echo "package_test: ok"
