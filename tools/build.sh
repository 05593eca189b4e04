#!/usr/bin/env bash
# tools/build.sh [release|debug|asan|tsan|shared] [TARGET...] — configures and builds into
# build/<type> (every target, or only the ones named). `shared`: a Release build of the libraries
# as shared libraries (BUILD_SHARED_LIBS) and the CLI only, no tests or benchmarks — what
# tools/test.sh installs to check the shared package.
set -euo pipefail
cd "$(dirname "$0")/.."
type=${1:-release}
shift || true
extra=()
case "$type" in
  release) cmake_type=Release ;;
  debug) cmake_type=Debug ;;
  # Sanitizer builds are for tests: no benchmarks.
  asan) cmake_type=Asan; extra=(-DTSREAD_BUILD_BENCHMARKS=OFF -DTSREAD_BUILD_PYTHON=OFF) ;;
  tsan) cmake_type=Tsan; extra=(-DTSREAD_BUILD_BENCHMARKS=OFF -DTSREAD_BUILD_PYTHON=OFF) ;;
  shared) cmake_type=Release; extra=(-DBUILD_SHARED_LIBS=ON -DTSREAD_BUILD_TESTS=OFF -DTSREAD_BUILD_BENCHMARKS=OFF -DTSREAD_BUILD_PYTHON=OFF) ;;
  *) echo "usage: tools/build.sh [release|debug|asan|tsan|shared]" >&2; exit 1 ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)
# ccache (tools/setup.sh installs it) makes rebuilds of unchanged sources, in any build folder, cheap.
if command -v ccache >/dev/null; then extra+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "build/$type" -DCMAKE_BUILD_TYPE="$cmake_type" "${extra[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "build/$type" -j"$jobs" "${targets[@]}"
