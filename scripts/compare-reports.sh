#!/usr/bin/env bash
# Compares two folders of scripts/deterministic-reports.sh byte for byte, apart from the lines
# that name the command line and the wall time; prints the differing files, exits 1 if any.
set -euo pipefail
old=${1:?usage: compare-reports.sh OLD NEW}
new=${2:?usage: compare-reports.sh OLD NEW}
status=0
while IFS= read -r file; do
  rel=${file#"$old"/}
  if [ ! -f "$new/$rel" ]; then echo "missing: $rel"; status=1; continue; fi
  if ! diff -q <(grep -v -e '^Command:' -e 'wall time' -e '^report: ' "$file") \
       <(grep -v -e '^Command:' -e 'wall time' -e '^report: ' "$new/$rel") >/dev/null; then
    echo "differs: $rel"; status=1
  fi
done < <(find "$old" -type f | sort)
[ "$status" = 0 ] && echo "identical: $(find "$old" -type f | wc -l) files"
exit $status
