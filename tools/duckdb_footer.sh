#!/usr/bin/env bash
# tools/duckdb_footer.sh FILE [EXT_VERSION] [MIN_C_API] [PLATFORM] — appends the 512-byte metadata
# footer DuckDB checks when it loads an extension: eight 32-byte zero-padded ASCII fields (three
# empty; ABI type C_STRUCT; the extension's version; the minimum C API version; the platform; the
# magic "4"), then a 256-byte all-zero signature (unsigned extension).
set -euo pipefail
file=$1
ext_version=${2:-v0.1.0}
c_api=${3:-v1.2.0}
platform=${4:-linux_amd64}
field() {
  local s=$1
  if ((${#s} > 32)); then echo "duckdb_footer: field '$s' longer than 32 bytes" >&2; exit 1; fi
  printf '%s' "$s"
  head -c $((32 - ${#s})) /dev/zero
}
{
  field ""; field ""; field ""
  field "C_STRUCT"; field "$ext_version"; field "$c_api"; field "$platform"; field "4"
  head -c 256 /dev/zero
} >>"$file"
