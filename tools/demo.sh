#!/usr/bin/env bash
# tools/demo.sh [FILE] — README command 1: installs what is missing, builds Release, takes the
# benchmark file (the 3.2M-row, 1000-device file written by the Apache Java writer, if
# ../shared/bench is there; otherwise generates the same shape with `tsread gen`), and scans it:
# what it holds and how fast tsread reads it.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
# The build prints its progress on one line instead of a long silence (errors in full).
echo "== building tsread (Release; a first build takes a few minutes on 2 cores)"
tools/build.sh release tsread_cli 2>&1 | awk '
  /^\[ *[0-9]+%\]/ { match($0, /[0-9]+%/); p = substr($0, RSTART, RLENGTH)
                      if (p != last) { printf "\r   build %s ", p; fflush(); last = p }; next }
  /error|Error|warning/ { print }'
echo
tsread=build/release/tsread
file=${1:-}
if [[ -z $file ]]; then
  file=../shared/bench/table_large.tsfile
  if [[ ! -f $file ]]; then
    file=build/demo/sensors.tsfile
    if [[ ! -f $file ]]; then
      mkdir -p build/demo
      echo "== tsread gen $file (1000 devices x 3200 rows, LZ4)"
      "$tsread" gen "$file"
    fi
  fi
fi
if [[ ! -f $file ]]; then
  echo "demo: $file not found" >&2
  exit 3
fi
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
