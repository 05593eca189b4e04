#!/usr/bin/env bash
# tools/duckdb_platform_copy.sh EXTENSION OUT PLATFORM [EXT_VERSION] [MIN_C_API] — writes OUT: the
# extension's code (EXTENSION without its 512-byte footer) with a footer naming PLATFORM. The
# same binary serves DuckDB builds that only differ in their platform's name: DuckDB 1.2.x for
# Linux calls itself linux_amd64_gcc4 and refuses a file that says linux_amd64 (1.3 and later).
set -euo pipefail
in=$1
out=$2
platform=$3
mkdir -p "$(dirname "$out")"
size=$(stat -c %s "$in")
if ((size <= 512)); then echo "duckdb_platform_copy: $in holds no footer" >&2; exit 1; fi
head -c $((size - 512)) "$in" >"$out.tmp"
"$(dirname "$0")/duckdb_footer.sh" "$out.tmp" "${4:-v0.1.0}" "${5:-v1.2.0}" "$platform"
mv "$out.tmp" "$out"
