#!/usr/bin/env bash
# Checks that every C++ file of the project is formatted by its .clang-format (clang-format-15);
# prints the files that are not and exits 1 if any is. Run by ctest (test clang_format).
set -euo pipefail
cd "$(dirname "$0")/.."
format=$(command -v clang-format-15 || command -v clang-format || true)
if [ -z "$format" ]; then
  echo "check-format: clang-format-15 is needed (scripts/install-deps.sh installs it)" >&2
  exit 2
fi
mapfile -t files < <(find api baselines bench data evaluation model python rewriter runtime tests \
  tokenizer tools training -name '*.cpp' -o -name '*.hpp' | sort)
bad=$("$format" --dry-run --Werror "${files[@]}" 2>&1 | grep -E '^[^:]+:[0-9]+:[0-9]+: error' |
  cut -d: -f1 | sort -u || true)
if [ -n "$bad" ]; then
  echo "not formatted (run clang-format-15 -i on them):"
  echo "$bad"
  exit 1
fi
echo "clang-format: ${#files[@]} files formatted"
