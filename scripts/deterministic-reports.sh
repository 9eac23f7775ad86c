#!/usr/bin/env bash
# Writes every deterministic evaluation report into OUT (the references on both platforms and
# every protocol, a 2-epoch DeepTune run with a fixed seed, a coarsening static/fixed/magni run),
# so that two builds can be compared byte for byte: scripts/compare-reports.sh OLD NEW.
# usage: scripts/deterministic-reports.sh OUT [DEEPTUNE]   (DEEPTUNE: default build/bin/deeptune)
set -euo pipefail
out=${1:?usage: deterministic-reports.sh OUT [DEEPTUNE]}
deeptune=${2:-build/bin/deeptune}
data=${DEEPTUNE_DATA:-$(dirname "$0")/../../shared/data/deeptune}
mkdir -p "$out"
for p in amd nvidia; do
  for protocol in folds suite kernel; do
    "$deeptune" evaluate --data "$data/cgo17-$p.csv" --folds "$data/folds-$p.csv" \
      --platform "$p" --protocol "$protocol" \
      --methods static,grewe,hand-tree,memory,hand-boosted,token-boosted \
      --report "$out/references-$p-$protocol" >"$out/references-$p-$protocol.out"
  done
done
"$deeptune" evaluate --data "$data/cgo17-amd.csv" --folds "$data/folds-amd.csv" --platform amd \
  --methods deeptune --epochs 2 --seed 7 --batching length --boosted-head \
  --report "$out/deeptune-2-epochs" >"$out/deeptune-2-epochs.out" 2>/dev/null
"$deeptune" evaluate --task coarsening --data "$data/pact-2014-runtimes.csv" \
  --oracles "$data/pact-2014-oracles.csv" --methods static,fixed,magni --seeds 1 \
  --report "$out/coarsening" >"$out/coarsening.out" 2>/dev/null
echo "reports in $out"
