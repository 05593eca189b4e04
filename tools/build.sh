#!/usr/bin/env bash
# tools/build.sh [release|debug|asan|tsan] [TARGET...] — configures and builds into build/<type>
# (every target, or only the ones named).
set -euo pipefail
cd "$(dirname "$0")/.."
type=${1:-release}
shift || true
case "$type" in
  release) cmake_type=Release ;;
  debug) cmake_type=Debug ;;
  asan) cmake_type=Asan ;;
  tsan) cmake_type=Tsan ;;
  *) echo "usage: tools/build.sh [release|debug|asan|tsan]" >&2; exit 1 ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "build/$type" -DCMAKE_BUILD_TYPE="$cmake_type" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "build/$type" -j"$jobs" "${targets[@]}"
