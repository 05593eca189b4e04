#!/usr/bin/env bash
# tools/bench_duckdb.sh [REPS] — the DuckDB extension's benchmark (docs/benchmarks.md, "DuckDB
# extension"): the issue's aggregate over ../shared/bench/table_large.tsfile through read_tsfile,
# through read_parquet on the same rows as Parquet (snappy, written by DuckDB from a `tsread cat` CSV
# dump) and through a native DuckDB table, with 1 then 2 threads, and a `tags` query for one device
# of the 1000, and read_tsfile with tags_as_enum := true (TAG columns as ENUM codes); Q8 of the SQL suite
# (average per region and 5-minute bucket) through read_tsfile, read_parquet and tsfile_aggregate; and two lower
# bounds: the aggregate over an uncompressed in-memory table of the same rows (flat vectors handed
# over at no cost: what any source that, like a stable-C-API table function, emits flat VARCHAR
# vectors must at least take) and over the same table with the tags as ENUMs — all in one
# DuckDB process (tsread_sql --timer), each query REPS times (default 7);
# prints the median of each. Run it on a quiet machine:
#   flock /tmp/tsread-build.lock /work/quiet.sh tools/bench_duckdb.sh
# The CSV and Parquet files go to $TSREAD_BENCH_DATA (default /work/bench-data/duckdb), made once.
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-7}
build=${TSREAD_BUILD_DIR:-build/release}
tsfile=$(realpath "${TSREAD_BENCH_FILE:-../shared/bench/table_large.tsfile}")
data=${TSREAD_BENCH_DATA:-/work/bench-data/duckdb}
parquet=$data/table_large.parquet
for f in "$build/tsread" "$build/tsread_sql" "$build/tsread.duckdb_extension"; do
  [[ -e $f ]] || { echo "bench_duckdb: $f missing: tools/build.sh release tsread_cli tsread_sql tsread_duckdb" >&2; exit 1; }
done
sql() { "$build/tsread_sql" --extension "$build/tsread.duckdb_extension" "$@"; }

if [[ ! -f $parquet ]]; then
  mkdir -p "$data"
  echo "bench_duckdb: writing $data/table_large.csv and $parquet" >&2
  "$build/tsread" cat "$tsfile" --table sensors > "$data/table_large.csv"
  # The same types as read_tsfile gives: time as TIMESTAMP (stored milliseconds), tags VARCHAR.
  sql "COPY (SELECT make_timestamp(time * 1000) AS time, region, device, s_int64, s_double, s_float, s_int32, s_bool
             FROM read_csv('$data/table_large.csv', header = true, columns = {'time': 'BIGINT', 'region': 'VARCHAR',
               'device': 'VARCHAR', 's_int64': 'BIGINT', 's_double': 'DOUBLE', 's_float': 'FLOAT',
               's_int32': 'INTEGER', 's_bool': 'BOOLEAN'}))
       TO '$parquet' (FORMAT parquet, COMPRESSION snappy)" >/dev/null
fi

aggregate="count(*), sum(hash(region)), sum(hash(device)), sum(epoch_ms(time)), sum(s_int64), sum(s_double),
           sum(s_float), sum(s_int32), count_if(s_bool)"
declare -A from=(
  [read_tsfile]="read_tsfile('$tsfile')"
  [read_parquet]="read_parquet('$parquet')"
  [native]="native"
  [read_tsfile_tags]="read_tsfile('$tsfile', tags := MAP {'device': ['dev_007']})"
  [read_tsfile_enum]="read_tsfile('$tsfile', tags_as_enum := true)"
  [bound_flat]="raw"
  [bound_enum]="raw_enum"
)
order=(read_tsfile read_tsfile_enum read_parquet native read_tsfile_tags bound_flat bound_enum q8_read_tsfile
       q8_read_parquet q8_tsfile_aggregate)
declare -A query
for q in "${!from[@]}"; do query[$q]="SELECT $aggregate FROM ${from[$q]}"; done
# Q8 of the SQL suite (issue 46): the average of s_double per region and 5-minute bucket — with time_bucket
# over read_tsfile's TIMESTAMPTZ and over Parquet's TIMESTAMP, and through tsfile_aggregate's buckets (a
# device's sums and counts per bucket, from statistics where a page lies in one bucket) re-aggregated by region.
q8="SELECT region, time_bucket(INTERVAL '5 minutes', time) AS bucket, avg(s_double) AS avg FROM"
query[q8_read_tsfile]="$q8 read_tsfile('$tsfile') GROUP BY ALL"
query[q8_read_parquet]="$q8 read_parquet('$parquet') GROUP BY ALL"
query[q8_tsfile_aggregate]="SELECT region, bucket, sum(s_double_sum) / sum(s_double_count) AS avg
  FROM tsfile_aggregate('$tsfile', bucket := INTERVAL '5 minutes') GROUP BY ALL"

# One process: load the native table (DuckDB's default compression) and the two uncompressed
# bound tables, then per thread count every query REPS times, interleaved.
statements=("CREATE TABLE native AS SELECT * FROM read_parquet('$parquet')"
  "SET force_compression = 'uncompressed'"
  "CREATE TABLE raw AS SELECT * FROM native"
  "CREATE TYPE region_enum AS ENUM (SELECT DISTINCT region FROM raw ORDER BY region)"
  "CREATE TYPE device_enum AS ENUM (SELECT DISTINCT device FROM raw ORDER BY device)"
  "CREATE TABLE raw_enum AS SELECT time, region::region_enum AS region, device::device_enum AS device, s_int64,
     s_double, s_float, s_int32, s_bool FROM raw"
  "SET force_compression = 'auto'")
labels=(load set load load load load set)
for threads in 1 2; do
  statements+=("SET threads = $threads")
  labels+=(set)
  for ((r = 0; r < reps; ++r)); do
    for q in "${order[@]}"; do
      statements+=("${query[$q]}")
      labels+=("$threads:$q")
    done
  done
done
times=$(sql --csv --timer "${statements[@]}" 2>&1 >/dev/null | awk '/^Run Time:/ {print $3}')
mapfile -t seconds <<<"$times"
if ((${#seconds[@]} != ${#statements[@]})); then
  echo "bench_duckdb: expected ${#statements[@]} timings, got ${#seconds[@]}" >&2
  sql --csv "${statements[@]:0:3}" >&2 || true
  exit 1
fi

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
declare -A ms
for q in "${order[@]}"; do
  for threads in 1 2; do
    ms[$threads:$q]=$(for i in "${!labels[@]}"; do
      if [[ ${labels[$i]} == "$threads:$q" ]]; then echo "${seconds[$i]}"; fi
    done | median | awk '{printf "%.1f", $1 * 1000}')
  done
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo "DuckDB $(sql --csv "SELECT version()" | tail -1), $(nproc) CPUs, $reps runs each, median ms"
printf '%-20s %10s %10s %8s\n' query "1 thread" "2 threads" "1->2"
for q in "${order[@]}"; do
  printf '%-20s %10s %10s %7sx\n' "$q" "${ms[1:$q]}" "${ms[2:$q]}" "$(ratio "${ms[1:$q]}" "${ms[2:$q]}")"
done
echo "read_parquet / read_tsfile, 1 thread: $(ratio "${ms[1:read_parquet]}" "${ms[1:read_tsfile]}")x (target >= 2)"
echo "native / read_tsfile, 1 thread: $(ratio "${ms[1:native]}" "${ms[1:read_tsfile]}")x (target >= 1.3)"
echo "read_parquet / read_tsfile with tags_as_enum, 1 thread: $(ratio "${ms[1:read_parquet]}" "${ms[1:read_tsfile_enum]}")x"
echo "native / read_tsfile with tags_as_enum, 1 thread: $(ratio "${ms[1:native]}" "${ms[1:read_tsfile_enum]}")x"
echo "lower bounds, 1 thread: flat VARCHAR vectors ${ms[1:bound_flat]} ms, ENUM vectors ${ms[1:bound_enum]} ms;" \
  "2x read_parquet needs <= $(awk -v a="${ms[1:read_parquet]}" 'BEGIN {printf "%.1f", a / 2}') ms," \
  "1.3x native <= $(awk -v a="${ms[1:native]}" 'BEGIN {printf "%.1f", a / 1.3}') ms"
echo "read_tsfile 1 -> 2 threads: $(ratio "${ms[1:read_tsfile]}" "${ms[2:read_tsfile]}")x (target >= 1.7)"
echo "Q8: read_parquet / tsfile_aggregate, 1 thread: $(ratio "${ms[1:q8_read_parquet]}" "${ms[1:q8_tsfile_aggregate]}")x," \
  "2 threads: $(ratio "${ms[2:q8_read_parquet]}" "${ms[2:q8_tsfile_aggregate]}")x (target >= 2);" \
  "read_parquet / read_tsfile: $(ratio "${ms[1:q8_read_parquet]}" "${ms[1:q8_read_tsfile]}")x"
echo "tags query / full scan, 1 thread: $(awk -v a="${ms[1:read_tsfile_tags]}" -v b="${ms[1:read_tsfile]}" 'BEGIN {printf "%.1f", 100 * a / b}')% (target < 5%)"
