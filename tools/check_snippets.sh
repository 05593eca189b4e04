#!/usr/bin/env bash
# tools/check_snippets.sh — checks that the C++ snippets of README.md and docs/*.md are the code of
# the example programs, so that a snippet compiles whenever the examples do (tools/test.sh builds
# and runs them against the installed package).
#
# A fenced c++ block whose first line is `// examples/DIR/FILE.cc` must equal, line for line, the
# lines of that file between `// snippet: DOC` and `// end snippet` (DOC: the document's path from
# the repository root), with the marker's indentation removed. Blocks without such a first line
# are not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
checked=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for doc in README.md docs/*.md; do
  # Every c++ block that names an example, as $work/N: the example's path, then the block.
  rm -f "$work"/block.*
  awk -v out="$work/block." '
    /^```(c\+\+|cpp)$/ { inside = 1; n++; first = 1; next }
    /^```/ && inside { inside = 0; next }
    inside && first { first = 0; if ($0 !~ /^\/\/ examples\/[^ ]+\.cc/) { skip[n] = 1; next } }
    inside && !skip[n] { print > (out n) }
  ' "$doc"
  for block in "$work"/block.*; do
    [[ -e $block ]] || continue
    example=$(head -n1 "$block" | sed -E 's|^// (examples/[^ ]+\.cc).*|\1|')
    if [[ ! -f $example ]]; then
      echo "check_snippets: $doc names $example, which does not exist" >&2
      status=1
      continue
    fi
    # The marked lines of the example, dedented by the marker's indentation.
    awk -v doc="$doc" '
      $0 ~ "^ *// snippet: " doc "$" { match($0, /^ */); indent = RLENGTH; inside = 1; next }
      inside && /^ *\/\/ end snippet$/ { inside = 0; next }
      inside { print substr($0, indent + 1) }
    ' "$example" > "$work/expected"
    if [[ ! -s $work/expected ]]; then
      echo "check_snippets: $example has no '// snippet: $doc' ... '// end snippet' lines" >&2
      status=1
    elif ! diff -u --label "$example (marked lines)" --label "$doc" "$work/expected" <(tail -n +2 "$block"); then
      echo "check_snippets: the $doc snippet differs from $example" >&2
      status=1
    fi
    checked=$((checked + 1))
  done
done
if ((status == 0)); then echo "check_snippets: $checked snippets match their examples"; fi
exit $status
