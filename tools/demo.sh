#!/usr/bin/env bash
# tools/demo.sh [FILE] — README command 1: installs what is missing, builds Release, and shows
# what tsread finds in a TsFile (default: the 3.2M-row benchmark file written by the Apache Java
# writer) and how fast it reads it.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
tools/build.sh release >/dev/null
file=${1:-../shared/bench/table_large.tsfile}
if [[ ! -f $file ]]; then
  echo "demo: $file not found" >&2
  exit 3
fi
tsread=build/release/tsread
echo "== tsread info $file"
start=$(date +%s%N)
"$tsread" info "$file"
end=$(date +%s%N)
echo "== metadata read in $(( (end - start) / 1000000 )) ms (open + index walk of every device)"
