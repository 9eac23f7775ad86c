#!/usr/bin/python3
"""How far to trust the shipped answer on unseen programs (issue 44), from the test reports of
scripts/calibration-ablation.sh: novelty and the Advisor's minimum probability.

Usage: scripts/trust-table.py [REPORTS_DIR] [DATA_DIR]
       (defaults docs/results/calibration and ../shared/data/deeptune)

Reads test-PLATFORM-gGROUPING-sSEED-temperature/{predictions,novelty}.csv (groupings 204 and 1,
tree seeds 0, 1, 2: 6 runs a platform) and the data's transfer column. Prints, per platform,
mean +- sample sd over the 6 runs:
- novelty: the accuracy and mean probability of the most novel quarter of the rows (distance to
  the fold's nearest training program at least its 75th percentile) and of the rest;
- per minimum probability t (AdvisorOptions::minProbability): the share of answers below t (they
  fall back: GPU from 64 MiB moved, else CPU), the accuracy of the answers kept, the accuracy of
  the rule and of the model on those that fell back, and the accuracy of all the decisions.
"""
import csv
import os
import statistics
import sys

PLATFORMS = ["amd", "nvidia"]
GROUPINGS = ["204", "1"]
SEEDS = ["0", "1", "2"]
THRESHOLDS = [0.0, 0.6, 0.7, 0.8, 0.9]
FALLBACK_GPU_BYTES = 64 << 20
METHOD = "source-boosted"


def read(path):
    with open(path, newline="") as stream:
        return list(csv.DictReader(stream))


def spread(values, digits=1):
    mean = statistics.mean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{mean:.{digits}f} ± {sd:.{digits}f}"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "docs/results/calibration"
    data = sys.argv[2] if len(sys.argv) > 2 else "../shared/data/deeptune"
    for platform in PLATFORMS:
        transfer = {row[""] if "" in row else row[next(iter(row))]: float(row["transfer"])
                    for row in read(os.path.join(data, f"cgo17-{platform}.csv"))}
        novel = {"novel": [], "rest": [], "novel_p": [], "rest_p": []}
        kept = {t: {"share": [], "kept": [], "rule": [], "model": [], "all": []} for t in THRESHOLDS}
        for g in GROUPINGS:
            for s in SEEDS:
                report = os.path.join(root, f"test-{platform}-g{g}-s{s}-temperature")
                rows = read(os.path.join(report, "predictions.csv"))
                distance = [float(r["nearest_distance"]) for r in read(os.path.join(report, "novelty.csv"))]
                threshold = sorted(distance)[len(distance) * 3 // 4]
                right = [r[METHOD] == r["oracle"] for r in rows]
                sure = [float(r[METHOD + "_p_gpu"]) if r[METHOD] == "GPU"
                        else 1 - float(r[METHOD + "_p_gpu"]) for r in rows]
                is_novel = [d >= threshold for d in distance]
                for name, flag in (("novel", True), ("rest", False)):
                    chosen = [i for i in range(len(rows)) if is_novel[i] == flag]
                    novel[name].append(100 * sum(right[i] for i in chosen) / len(chosen))
                    novel[name + "_p"].append(statistics.mean(sure[i] for i in chosen))
                for t in THRESHOLDS:
                    falls = [sure[i] < t for i in range(len(rows))]
                    rule = ["GPU" if transfer[r["index"]] >= FALLBACK_GPU_BYTES else "CPU"
                            for r in rows]
                    rule_right = [rule[i] == rows[i]["oracle"] for i in range(len(rows))]
                    fell = [i for i in range(len(rows)) if falls[i]]
                    stay = [i for i in range(len(rows)) if not falls[i]]
                    kept[t]["share"].append(100 * len(fell) / len(rows))
                    kept[t]["kept"].append(100 * sum(right[i] for i in stay) / max(1, len(stay)))
                    if fell:
                        kept[t]["rule"].append(100 * sum(rule_right[i] for i in fell) / len(fell))
                        kept[t]["model"].append(100 * sum(right[i] for i in fell) / len(fell))
                    kept[t]["all"].append(100 * (sum(right[i] for i in stay) +
                                                 sum(rule_right[i] for i in fell)) / len(rows))
        print(f"\n{platform}: novelty (6 runs)")
        print("| rows | accuracy | mean probability |\n|---|---:|---:|")
        print(f"| most novel quarter | {spread(novel['novel'])}% | {spread(novel['novel_p'], 3)} |")
        print(f"| the rest | {spread(novel['rest'])}% | {spread(novel['rest_p'], 3)} |")
        print(f"\n{platform}: the Advisor's minimum probability (6 runs)")
        print("| minimum | answers that fall back | accuracy of the answers kept | "
              "accuracy of the rule where it falls back | the model's there | accuracy of all "
              "decisions |")
        print("|---:|---:|---:|---:|---:|---:|")
        for t in THRESHOLDS:
            k = kept[t]
            every = len(k["rule"]) == len(k["all"])
            rule = spread(k["rule"]) + "%" if every else "–"
            model = spread(k["model"]) + "%" if every else "–"
            print(f"| {t:g} | {spread(k['share'])}% | {spread(k['kept'])}% | {rule} | {model} | "
                  f"{spread(k['all'])}% |")


if __name__ == "__main__":
    main()
