#!/bin/bash
# The calibration ablation of docs/results.md (issue 44): source-boosted with the shipped tree
# settings under each calibration, tree seeds 0/1/2, groupings 204 and 1, AMD and NVIDIA; first
# on validation carved from the training folds (where the choice is made), then on the test
# folds. Usage: scripts/calibration-ablation.sh [OUT_DIR] (default docs/results/calibration);
# DEEPTUNE (default build/bin/deeptune) and DATA (default ../shared/data/deeptune) may be set.
# A report already complete (its "done" marker) is kept, so an interrupted run resumes.
set -euo pipefail
out=${1:-docs/results/calibration}
deeptune=${DEEPTUNE:-build/bin/deeptune}
data=${DATA:-../shared/data/deeptune}
for mode in validation test; do
  for platform in amd nvidia; do
    for grouping in 204 1; do
      for seed in 0 1 2; do
        for calibration in none platt temperature isotonic; do
          report=$out/$mode-$platform-g$grouping-s$seed-$calibration
          [ -f "$report/done" ] && continue
          extra=()
          [ "$mode" = validation ] && extra=(--validation)
          "$deeptune" evaluate --data "$data/cgo17-$platform.csv" --platform "$platform" \
            --protocol kernel --seed "$grouping" --methods source-boosted \
            --boosted-trees "seed=$seed" --calibration "$calibration" "${extra[@]}" \
            --report "$report" >"$report.log" 2>&1
          touch "$report/done"
        done
      done
    done
  done
done
