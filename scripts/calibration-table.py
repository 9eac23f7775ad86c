#!/usr/bin/python3
"""The calibration ablation table of docs/results.md (issue 44), from the reports of
scripts/calibration-ablation.sh.

Usage: scripts/calibration-table.py [REPORTS_DIR]   (default docs/results/calibration)

For each calibration: validation accuracy and ECE (mean over the 4 cells x 3 tree seeds, the
choice's figures), and per platform the test accuracy and ECE as mean +- sample sd over its 6
runs (groupings 204 and 1 x tree seeds 0, 1, 2). Prints a Markdown table and the choice by the
rule of docs/results.md: among the calibrations whose mean validation accuracy is not below
none's, the lowest mean validation ECE; one within 0.005 of it with fewer parameters
(temperature 1, platt 2, isotonic many) wins over it.
"""
import csv
import os
import statistics
import sys

CALIBRATIONS = ["none", "platt", "temperature", "isotonic"]
PARAMETERS = {"none": 0, "temperature": 1, "platt": 2, "isotonic": 3}
PLATFORMS = ["amd", "nvidia"]
GROUPINGS = ["204", "1"]
SEEDS = ["0", "1", "2"]


def row_of(path, method="source-boosted", suite=None):
    with open(path, newline="") as stream:
        for row in csv.DictReader(stream):
            if row["method"] == method and (suite is None or row["suite"] == suite):
                return row
    raise SystemExit(f"{path}: no {method} row")


def spread(values):
    return statistics.mean(values), statistics.stdev(values) if len(values) > 1 else 0.0


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "docs/results/calibration"
    table = {}
    for c in CALIBRATIONS:
        validation = {"accuracy": [], "ece": []}
        test = {p: {"accuracy": [], "ece": []} for p in PLATFORMS}
        for p in PLATFORMS:
            for g in GROUPINGS:
                for s in SEEDS:
                    v = row_of(os.path.join(root, f"validation-{p}-g{g}-s{s}-{c}", "validation.csv"))
                    validation["accuracy"].append(float(v["accuracy"]))
                    validation["ece"].append(float(v["ece"]))
                    t = row_of(os.path.join(root, f"test-{p}-g{g}-s{s}-{c}", "metrics.csv"),
                               suite="all")
                    test[p]["accuracy"].append(float(t["accuracy"]))
                    test[p]["ece"].append(float(t["ece"]))
        table[c] = (validation, test)

    print("| calibration | validation accuracy | validation ECE | AMD test accuracy | AMD test ECE "
          "| NVIDIA test accuracy | NVIDIA test ECE |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for c in CALIBRATIONS:
        validation, test = table[c]
        cells = [f"{statistics.mean(validation['accuracy']):.2f}%",
                 f"{statistics.mean(validation['ece']):.4f}"]
        for p in PLATFORMS:
            a, a_sd = spread(test[p]["accuracy"])
            e, e_sd = spread(test[p]["ece"])
            cells += [f"{a:.2f}% ± {a_sd:.2f}", f"{e:.4f} ± {e_sd:.4f}"]
        print(f"| {c} | " + " | ".join(cells) + " |")

    base = statistics.mean(table["none"][0]["accuracy"])
    candidates = [c for c in CALIBRATIONS
                  if statistics.mean(table[c][0]["accuracy"]) >= base - 1e-9]
    best = min(candidates, key=lambda c: statistics.mean(table[c][0]["ece"]))
    best_ece = statistics.mean(table[best][0]["ece"])
    close = [c for c in candidates if statistics.mean(table[c][0]["ece"]) <= best_ece + 0.005]
    choice = min(close, key=lambda c: PARAMETERS[c])
    print(f"\nchoice by the rule: {choice} (lowest validation ECE: {best}, {best_ece:.4f}; "
          f"within 0.005: {', '.join(close)})")


if __name__ == "__main__":
    main()
