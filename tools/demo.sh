#!/usr/bin/env bash
# tools/demo.sh [FILE] — README command 1: installs what is missing, builds Release, and scans a
# TsFile (default: the 3.2M-row, 1000-device benchmark file written by the Apache Java writer),
# printing what it holds and how fast tsread reads it.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
tools/build.sh release tsread_cli >/dev/null
file=${1:-../shared/bench/table_large.tsfile}
if [[ ! -f $file ]]; then
  echo "demo: $file not found" >&2
  exit 3
fi
tsread=build/release/tsread
echo "== tsread info $file"
"$tsread" info "$file"
table=$("$tsread" info "$file" --json | sed -n 's/.*"tables": \[ *{"name": "\([^"]*\)".*/\1/p; s/^ *{"name": "\([^"]*\)".*/\1/p' | head -n 1)
if [[ -z $table ]]; then
  echo "demo: $file has no table-model table to scan" >&2
  exit 0
fi
for threads in 1 2; do
  echo "== tsread scan $file --table $table --threads $threads (every column materialised)"
  "$tsread" scan "$file" --table "$table" --threads "$threads"
done
