#!/usr/bin/env bash
# tools/fuzz.sh TARGET SECONDS — builds the libFuzzer targets with clang (build/fuzz) and runs
# TARGET (open_and_scan, c_api, aggregate, decoder, decompress, byte_stream, salvage) for SECONDS, from a seed corpus made
# of the reference fixtures. Crashes land in build/fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -ne 2 ]]; then
  echo "usage: tools/fuzz.sh TARGET SECONDS   (TARGET: open_and_scan | c_api | aggregate | decoder | decompress | byte_stream | salvage)" >&2
  exit 1
fi
target=$1
seconds=$2
tools/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
CXX=clang++ CC=clang cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=Debug -DTSREAD_FUZZ=ON \
  -DTSREAD_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build/fuzz -j"$jobs" --target "${target}_fuzzer" seed_extractor >/dev/null
fixtures=${TSREAD_FIXTURES:-../shared/fixtures}
corpus=build/fuzz/corpus/$target
artifacts=build/fuzz/artifacts/$target
mkdir -p build/fuzz/corpus/{decoder,decompress,byte_stream,open_and_scan,c_api,aggregate,salvage} "$corpus" "$artifacts"
# The corpus kept in the repository (tools/fuzz_corpus.sh) seeds every run: fuzzing accumulates.
if [[ -d cpp/test/fuzz/corpus/$target ]]; then cp -n cpp/test/fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true; fi
# Real pages, page bodies, index nodes and metadata from the fixtures, extracted once.
if [[ ! -f build/fuzz/corpus/.extracted ]]; then
  build/fuzz/cpp/test/seed_extractor build/fuzz/corpus "$fixtures"/*.tsfile >/dev/null
  touch build/fuzz/corpus/.extracted
fi
seed() {  # seed NAME BYTES...: writes a seed file once
  local name=$1; shift
  [[ -f $corpus/$name ]] || printf "$@" > "$corpus/$name"
}
case $target in
  open_and_scan)
    for f in "$fixtures"/*.tsfile; do
      [[ $(stat -c %s "$f") -le 300000 ]] && cp -n "$f" "$corpus/" || true
    done ;;
  c_api)
    # Whole table-model files, and the same with a predicate text before them ("F" TEXT "\n" FILE).
    for f in "$fixtures"/table_*.tsfile; do
      [[ -f $f && $(stat -c %s "$f") -le 300000 ]] || continue
      cp -n "$f" "$corpus/" || true
      [[ -f $corpus/F.$(basename "$f") ]] || { printf 'F(region = east OR s_double > 1) AND f_int32 IS NOT NULL\n'; cat "$f"; } > "$corpus/F.$(basename "$f")"
    done ;;
  aggregate)
    # The table-model fixtures (aggregates are of tables).
    for f in "$fixtures"/table_*.tsfile; do
      [[ -f $f && $(stat -c %s "$f") -le 300000 ]] && cp -n "$f" "$corpus/" || true
    done ;;
  salvage)
    # Unsealed files: prefixes of small fixtures, cut inside groups, pages and the index.
    for f in "$fixtures"/v3_sample.tsfile "$fixtures"/table_enc_DICTIONARY.tsfile "$fixtures"/tree_aligned.tsfile \
             "$fixtures"/tree_nonaligned.tsfile "$fixtures"/table_multi.tsfile; do
      size=$(stat -c %s "$f")
      for k in 1 2 3 4 5 6 7 8; do
        [[ -f $corpus/$(basename "$f").$k ]] || head -c $((size * k / 9)) "$f" > "$corpus/$(basename "$f").$k"
      done
    done ;;
  byte_stream)
    for f in "$fixtures"/v3_sample.tsfile "$fixtures"/table_enc_DICTIONARY.tsfile; do
      size=$(stat -c %s "$f")
      # Byte 0 picks the structure; give each a metadata-ish tail of a real file.
      for k in 0 1 2 3 4 5 6 7 8; do
        { printf "\\x$(printf %02x $k)"; tail -c 400 "$f"; } > "$corpus/$(basename "$f").$k"
      done
    done
    # Predicate text (byte 0 = 9).
    seed p1 "\\x09s_double > 380 AND s_int32 <= -2.5"
    seed p2 "\\x09region=east,'we''st' AND \"odd name\" IS NOT NULL"
    seed p3 "\\x09d >= 2024-01-31 and b = TRUE and t != '\\xc3\\xa9'" ;;
  decoder)
    for enc in 0 1 2 4 6 7 8 9 11 12 13; do
      for type in 0 1 2 3 4 5; do
        seed "e${enc}t${type}" "\\x$(printf %02x $enc)\\x$(printf %02x $type)\\x10\\x00\\x04\\x00\\x00\\x00\\x10\\x00\\x00\\x00\\x05"
      done
    done ;;
  decompress)
    for codec in 0 1 2 7 8 9; do
      seed "c$codec" "\\x$(printf %02x $codec)\\x10\\x00\\x00hello, tsread!!!"
    done ;;
  *) echo "fuzz: unknown target $target" >&2; exit 1 ;;
esac
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
  "build/fuzz/cpp/test/${target}_fuzzer" "$corpus" -dict=cpp/test/fuzz/tsfile.dict -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=1024 \
  -timeout=10 -artifact_prefix="$artifacts/" -print_final_stats=1 2>&1 | tail -n 25
