#!/usr/bin/python3
"""The grouped rows of docs/results.md's pretraining section, from the reports' runs.csv files.

Usage: scripts/pretraining-table.py [REPORTS_DIR]   (default docs/results/pretraining)

A row is a set of reports named kernel-PLATFORM-gGROUPING-ROW[-sSEED]...: for each cell
(platform, grouping) and head (deeptune, deeptune-boosted, deeptune-boosted-tc), the mean and
sample sd over the seeds. The seeds of one report are its --seeds runs (runs.csv gives their
mean and sd); the reports of a row that differ only by the language model's pretraining seed
(ROW, ROW-s1204, ROW-s2204) are seeds too: their one value each (for a frozen encoder the
boosted heads do not depend on the run's seed) is pooled. Prints a Markdown table and writes
rows.csv beside the reports.
"""
import csv
import os
import re
import statistics
import sys

HEADS = ["deeptune", "deeptune-boosted", "deeptune-boosted-tc"]
CELLS = [("amd", "204"), ("amd", "1"), ("nvidia", "204"), ("nvidia", "1")]


def read_runs(path):
    with open(path, newline="") as stream:
        return {row["method"]: row for row in csv.DictReader(stream)}


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "docs/results/pretraining"
    pattern = re.compile(r"kernel-(amd|nvidia)-g(\d+)-(.+)$")
    values = {}  # (row, platform, grouping, head) -> [(mean, sd, runs, sd is 0) per report]
    references = {}  # (platform, grouping) -> token-boosted accuracy
    for name in sorted(os.listdir(root)):
        match = pattern.match(name)
        runs_path = os.path.join(root, name, "runs.csv")
        if not match or not os.path.exists(runs_path):
            continue
        platform, grouping, row = match.groups()
        row = re.sub(r"^lm(\d+)", r"lm-e\1", row)  # the first reports' names: lm30 = lm-e30
        seed_match = re.match(r"(.+)-s(1204|2204)(-.*)?$", row)
        if seed_match:
            row = seed_match.group(1) + (seed_match.group(3) or "")
        runs = read_runs(runs_path)
        if "token-boosted" in runs:
            references[(platform, grouping)] = float(runs["token-boosted"]["accuracy_mean"])
        for head in HEADS:
            if head in runs:
                entry = runs[head]
                values.setdefault((row, platform, grouping, head), []).append(
                    (float(entry["accuracy_mean"]), float(entry["accuracy_sd"]),
                     int(entry["runs"]), float(entry["accuracy_sd"]) == 0.0))
    lines = ["| row | head | " + " | ".join("%s %s" % (p.upper() if p == "amd" else "NVIDIA", g)
                                            for p, g in CELLS) + " | AMD mean | NVIDIA mean |",
             "|---|---|" + "---:|" * (len(CELLS) + 2)]
    out_rows = []
    rows = sorted({key[0] for key in values})
    for row in rows:
        for head in HEADS:
            cells, means = [], {}
            for platform, grouping in CELLS:
                value = values.get((row, platform, grouping, head))
                if value is None:
                    cells.append("—")
                    continue
                if len(value) == 1 and not value[0][3]:  # one report: its runs are the seeds
                    mean, sd, count = value[0][:3]
                else:  # one value per report (language-model seed); a frozen head: one value
                    report_means = [v[0] for v in value]
                    mean = statistics.mean(report_means)
                    sd = statistics.stdev(report_means) if len(value) > 1 else 0.0
                    count = len(value)
                means.setdefault(platform, []).append(mean)
                cells.append("%.1f%% ± %.1f (%d)" % (mean, sd, count))
                out_rows.append([row, head, platform, grouping, "%.4f" % mean, "%.4f" % sd, count])
            # A frozen row's network head had one epoch: in rows.csv, not a result for the table.
            if all(c == "—" for c in cells) or (head == "deeptune" and row.endswith("-frozen")):
                continue
            platform_means = [("%.2f%%" % statistics.mean(means[p])) if len(means.get(p, [])) == 2
                              else "—" for p in ("amd", "nvidia")]
            lines.append("| %s | %s | %s | %s |" % (row, head, " | ".join(cells),
                                                  " | ".join(platform_means)))
    tb = [references.get(cell) for cell in CELLS]
    if all(v is not None for v in tb):
        lines.append("| token-boosted (reference) | — | %s | %.2f%% | %.2f%% |" % (
            " | ".join("%.1f%%" % v for v in tb), (tb[0] + tb[1]) / 2, (tb[2] + tb[3]) / 2))
    print("\n".join(lines))
    with open(os.path.join(root, "rows.csv"), "w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["row", "head", "platform", "grouping", "accuracy_mean", "accuracy_sd",
                         "seeds"])
        writer.writerows(out_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
