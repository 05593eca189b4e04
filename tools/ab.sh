#!/bin/bash
# A/B timing of whole commands: tools/ab.sh N LABEL1 'CMD1' LABEL2 'CMD2' ...
# Runs the commands in turn N times (alternating, so drifts of the host hit all alike), each pinned
# to CPU 0 with its output discarded, and prints per label the median and minimum wall time in ms
# (from `date +%s%N` around `bash -c`: ~1 ms of shell start-up included, the same for every label).
set -euo pipefail
if [[ $# -lt 3 || $(( ($# - 1) % 2 )) -ne 0 ]]; then
  echo "usage: tools/ab.sh N LABEL 'COMMAND' [LABEL 'COMMAND']..." >&2
  exit 1
fi
n=$1; shift
labels=(); commands=()
while [[ $# -gt 0 ]]; do labels+=("$1"); commands+=("$2"); shift 2; done
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
for _ in $(seq "$n"); do
  for k in "${!commands[@]}"; do
    start=$(date +%s%N)
    taskset -c 0 bash -c "${commands[$k]}" >/dev/null 2>&1 || echo "ab.sh: ${labels[$k]} failed" >&2
    end=$(date +%s%N)
    echo $(( (end - start) / 1000 )) >> "$dir/$k"
  done
done
for k in "${!commands[@]}"; do
  sort -n "$dir/$k" | awk -v label="${labels[$k]}" \
    '{t[NR] = $1} END {printf "%s %.2f ms (min %.2f)\n", label, t[int((NR + 1) / 2)] / 1000, t[1] / 1000}'
done
