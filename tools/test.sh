#!/usr/bin/env bash
# tools/test.sh [--quick|--full] — README command 2: installs what is missing, builds, and runs
# every test stage: the Release suite against ../shared/fixtures, then the suite under
# ASan+UBSan (skipped with --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=normal
for arg in "$@"; do
  case "$arg" in
    --quick) mode=quick ;;
    --full) mode=full ;;
    *) echo "usage: tools/test.sh [--quick|--full]" >&2; exit 1 ;;
  esac
done
export TSREAD_TEST_MODE=$mode
tools/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)

echo "== stage: release build + tests"
tools/build.sh release
(cd build/release && ctest --output-on-failure -j"$jobs" --timeout 900)

if [[ $mode != quick ]]; then
  echo "== stage: ASan+UBSan build + tests"
  tools/build.sh asan
  (cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
     ctest --output-on-failure -j"$jobs" --timeout 900)
fi
echo "== all test stages passed"
