#!/usr/bin/env bash
# Writes the project's own kernels (kernels/*.cl), normalized by `deeptune rewrite`, into a folder
# for `evaluate --pretrain-corpus`. Usage: scripts/pretrain-corpus.sh OUT_DIR [DEEPTUNE]
set -euo pipefail
out=${1:?usage: scripts/pretrain-corpus.sh OUT_DIR [DEEPTUNE]}
deeptune=${2:-build/bin/deeptune}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
count=0
for kernel in "$here"/kernels/*.cl; do
  "$deeptune" rewrite "$kernel" -o "$out/$(basename "$kernel")"
  count=$((count + 1))
done
echo "$count kernels rewritten into $out"
