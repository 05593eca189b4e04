#!/usr/bin/env bash
# tools/test.sh [--quick|--full] — README command 2: installs what is missing, builds, and runs
# every test stage: the Release suite against ../shared/fixtures, the Python package's tests, the installed packages and the
# examples built against them (tools/package_test.sh), then (not with --quick) the
# suite under ASan+UBSan, the parallel-scan tests under ThreadSanitizer and a smoke run of each
# libFuzzer target. --full runs the long sweeps (10,000 corruptions per fixture) and 5-minute
# fuzz runs.
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
# Each stage's heading says how long the run has taken so far (CI keeps within 45 minutes).
stage() { echo "== stage: $* ($((SECONDS / 60)) min $((SECONDS % 60)) s in)"; }

stage "release build + tests"
tools/build.sh release
(cd build/release && ctest --output-on-failure -j"$jobs" --timeout 900)

stage "python tests"
# Debian's interpreter explicitly (another python3 may come first on PATH). pytest exits non-zero
# when it collects no test (5), which fails this stage like any failure.
if ! ls build/release/python/tsread/_tsread*.so >/dev/null 2>&1; then
  echo "python tests: build/release/python/tsread/_tsread*.so missing (pybind11 not found?)" >&2
  exit 1
fi
PYTHONPATH=build/release/python /usr/bin/python3 -c "import tsread, tsread.dask"
PYTHONPATH=build/release/python /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests

stage "install + examples (static and shared packages; CMake and pkg-config consumers)"
# --quick checks the static package only (no extra build).
if [[ $mode == quick ]]; then tools/package_test.sh --static-only; else tools/package_test.sh; fi

if [[ $mode != quick ]]; then
  stage "ASan+UBSan build + tests"
  tools/build.sh asan
  (cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
     ctest --output-on-failure -j"$jobs" --timeout 900)
fi
if [[ $mode != quick ]]; then
  stage "ThreadSanitizer (parallel scans)"
  tools/build.sh tsan read_table_scanner_test dataset_dataset_test dataset_dataset_scanner_test \
    dataset_concurrency_stress_test read_memory_budget_test c_table_scan_test aggregate_table_aggregate_test \
    iotdb_merged_threads_test aggregate_iotdb_aggregate_test >/dev/null
  TSAN_OPTIONS=halt_on_error=1 build/tsan/cpp/test/read_table_scanner_test --gtest_brief=1 \
    --gtest_filter="*ThreadsGiveTheSameMultiset*:*ConsumerError*:*OrderedScansDeliver*:*WorkspaceKeeps*:*LongDevices*:*MoveBuffers*"
  # Arrow streams through the C ABI: workers, the consumer's own decoding, releases mid-scan, budgets.
  TSAN_OPTIONS=halt_on_error=1 build/tsan/cpp/test/c_table_scan_test --gtest_brief=1
  # Datasets: unordered workers sharing a split queue and the file pool.
  TSAN_OPTIONS=halt_on_error=1 build/tsan/cpp/test/dataset_dataset_test --gtest_brief=1
  TSAN_OPTIONS=halt_on_error=1 build/tsan/cpp/test/dataset_dataset_scanner_test --gtest_brief=1
  # Many independent scans at once on one reader and one dataset, cancelled at random points.
  TSAN_OPTIONS=halt_on_error=1 build/tsan/cpp/test/dataset_concurrency_stress_test --gtest_brief=1
  # Aggregates on several threads (AggregateTasks): shares of a file, files of a dataset.
  TSAN_OPTIONS=halt_on_error=1 build/tsan/cpp/test/aggregate_table_aggregate_test --gtest_brief=1 \
    --gtest_filter="*table_alltypes*:*ADatasetMergesADeviceAcrossFiles*:*AHundredFileDataset*"
  # IoTDB's merged scan in parts on threads, sharing its files' plans; its aggregates in shares.
  TSAN_OPTIONS=halt_on_error=1 build/tsan/cpp/test/iotdb_merged_threads_test --gtest_brief=1
  TSAN_OPTIONS=halt_on_error=1 build/tsan/cpp/test/aggregate_iotdb_aggregate_test --gtest_brief=1
  # Threads sharing one memory budget: waits, back-offs and reloads.
  TSAN_OPTIONS=halt_on_error=1 build/tsan/cpp/test/read_memory_budget_test --gtest_brief=1 \
    --gtest_filter="MemoryBudgetTest.*:Fixtures/BudgetedScanTest.*"

  fuzz_seconds=20
  [[ $mode == full ]] && fuzz_seconds=300
  for target in byte_stream decoder decompress open_and_scan c_api aggregate salvage; do
    stage "fuzz $target for ${fuzz_seconds}s"
    out=$(tools/fuzz.sh "$target" "$fuzz_seconds" 2>&1) || { echo "$out"; exit 1; }
    if grep -qE "ERROR: |SUMMARY: |deadly signal" <<<"$out"; then
      echo "$out"
      exit 1
    fi
    grep -E "^Done " <<<"$out"
  done
fi
echo "== all test stages passed in $((SECONDS / 60)) min $((SECONDS % 60)) s"
