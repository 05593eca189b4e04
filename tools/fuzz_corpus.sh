#!/usr/bin/env bash
# tools/fuzz_corpus.sh TARGET... — folds what fuzzing found (build/fuzz/corpus/TARGET) into the corpus kept in
# the repository (cpp/test/fuzz/corpus/TARGET), minimized with libFuzzer's -merge=1: the smallest set of
# inputs that reaches every feature the two reach together. The kept corpus seeds every later run
# (tools/fuzz.sh) and is replayed as a regression test by the normal suite (ctest -L fuzz_replay). Inputs
# larger than 64 KiB (16 KiB for salvage, whose inputs are whole files; FUZZ_CORPUS_MAX_KB overrides) are
# left out: the repository stays small, and the fixtures seed the large ones.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 ]]; then
  echo "usage: tools/fuzz_corpus.sh TARGET...   (after tools/fuzz.sh TARGET SECONDS)" >&2
  exit 1
fi
for target in "$@"; do
  fuzzer=build/fuzz/cpp/test/${target}_fuzzer
  [[ -x $fuzzer ]] || { echo "fuzz_corpus: $fuzzer missing: run tools/fuzz.sh $target SECONDS first" >&2; exit 1; }
  kept=cpp/test/fuzz/corpus/$target
  max_kb=${FUZZ_CORPUS_MAX_KB:-64}
  [[ $target == salvage && -z ${FUZZ_CORPUS_MAX_KB:-} ]] && max_kb=16
  merged=$(mktemp -d)
  mkdir -p "$kept" "build/fuzz/corpus/$target"
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 "$fuzzer" -merge=1 -max_len=$((max_kb * 1024)) -timeout=25 \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 "$merged" "$kept" "build/fuzz/corpus/$target" 2>&1 |
    grep -E "^MERGE-OUTER: [0-9]+ new files" || true
  # Keep only inputs within the size limit (-max_len bounds what merge reads, not what it copies).
  find "$merged" -type f -size +"${max_kb}"k -delete
  # Only the inputs merge names (their SHA-1) are replaced: those kept under a name (a crash found and
  # fixed, e.g. chunk-type-mismatch) are regression tests named in docs/robustness.md and stay, and a
  # copy merge made of one under its SHA-1 is dropped.
  find "$kept" -maxdepth 1 -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' -delete
  cp "$merged"/* "$kept"/ 2>/dev/null || true
  find "$kept" -maxdepth 1 -type f -regextype posix-extended ! -regex '.*/[0-9a-f]{40}' -print0 |
    while IFS= read -r -d '' named; do rm -f "$kept/$(sha1sum < "$named" | cut -c1-40)"; done
  rm -rf "$merged"
  echo "$target: $(ls "$kept" | wc -l) inputs, $(du -sh "$kept" | cut -f1) kept in $kept"
done
