#!/usr/bin/env bash
# The example diagram in every algorithm's header comment is the output of
# the command named on its "Example:" line. `diagrams.sh MPICOLL` rewrites
# them; `diagrams.sh --check MPICOLL` fails if any differs (a ctest test).
#   Example: mpicoll show allgather bruck --np 5 --compact
#            (legend line)
#   <diagram lines, each " *   ...">
#   */
set -euo pipefail
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
mpicoll=${1:?usage: diagrams.sh [--check] path/to/mpicoll}
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
for f in "$root"/src/coll/*/*_*.c; do
  [ "$(basename "$f" .c)" = "$(basename "$(dirname "$f")")" ] && continue   # an entry point
  cmd=$(sed -n 's/^ \* Example: mpicoll \(show .*\)$/\1/p' "$f")
  [ -n "$cmd" ] || { echo "diagrams: $f has no 'Example: mpicoll show ...' line"; status=1; continue; }
  # shellcheck disable=SC2086
  want=$("$mpicoll" $cmd | sed 's/^/ *   /; s/ *$//')
  tmp=$(mktemp)
  awk -v want="$want" '
    /^ \* Example: mpicoll show / { print; getline; print; getline; print; print want; skip = 1; next }
    skip && /^ \*\// { skip = 0 }
    skip { next }
    { print }' "$f" > "$tmp"
  if [ $check = 1 ]; then
    if ! diff -u "$f" "$tmp" > /dev/null; then
      echo "diagrams: $f: the header diagram differs from 'mpicoll $cmd' (run scripts/diagrams.sh)"
      diff -u "$f" "$tmp" | head -20
      status=1
    fi
    rm -f "$tmp"
  else
    mv "$tmp" "$f"
  fi
done
exit $status
