#!/usr/bin/python3
"""Checks issue 44's first point on the corpus: `deeptune predict` answers once per kernel.

Usage: scripts/corpus-predict-check.py [--corpus DIR] [--normalized DIR] [--deeptune BIN]

For every corpus file the rewriter accepts (status `passed` in the files.csv that
scripts/normalize-corpus.py writes, default build/corpus/), runs `deeptune predict --dsize 16777216
--wgsize 256 --json` with the include folders normalize-corpus.py uses, 200 files per process, and
compares the answers per file with the kernels `deeptune rewrite --all-kernels --json` finds.
Prints one line: files, answers, mismatches, failed processes. Exit 0 when every accepted file
gets one answer per kernel and every process exits 0; 1 otherwise; 2 for missing inputs.
"""
import argparse
import collections
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHUNK = 200


def include_folders(corpus, folder):
    """Every folder of a repository's part of the corpus, as normalize-corpus.py gives them."""
    return sorted({parent for parent, _, files in os.walk(os.path.join(corpus, folder)) if files})


def per_file(command, files):
    """Exit status and the count of JSON lines per file of `command` run on `files`."""
    done = subprocess.run(command + files, capture_output=True, text=True, errors="replace")
    counts = collections.Counter(json.loads(line)["file"] for line in done.stdout.splitlines())
    return done.returncode, counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "opencl"))
    parser.add_argument("--normalized", default=os.path.join(ROOT, "build", "corpus"))
    parser.add_argument("--deeptune", default=os.path.join(ROOT, "build", "bin", "deeptune"))
    args = parser.parse_args()
    table = os.path.join(args.normalized, "files.csv")
    if not os.path.isfile(table) or not os.path.isfile(args.deeptune):
        print(f"corpus-predict-check: needs {table} (scripts/normalize-corpus.py) and "
              f"{args.deeptune}", file=sys.stderr)
        return 2
    with open(table, newline="") as handle:
        accepted = [row for row in csv.DictReader(handle) if row["status"] == "passed"]
    by_repository = collections.defaultdict(list)
    for row in accepted:
        by_repository[row["repository"]].append(row["path"])
    files = answers = mismatches = failed = 0
    for repository, paths in sorted(by_repository.items()):
        folder = repository.replace("/", "+")
        includes = [word for path in include_folders(args.corpus, folder) for word in ("-I", path)]
        local = [os.path.join(args.corpus, folder, path) for path in paths]
        for start in range(0, len(local), CHUNK):
            chunk = local[start:start + CHUNK]
            status, predicted = per_file([args.deeptune, "predict", "--dsize", "16777216",
                                          "--wgsize", "256", "--json"] + includes, chunk)
            _, kernels = per_file([args.deeptune, "rewrite", "--all-kernels", "--json"] + includes,
                                  chunk)
            failed += status != 0
            for path in chunk:
                files += 1
                answers += predicted[path]
                if predicted[path] == 0 or predicted[path] != kernels[path]:
                    mismatches += 1
                    print(f"{path}: {predicted[path]} answers, {kernels[path]} kernels",
                          file=sys.stderr)
    print(f"{files} accepted files: {answers} answers, {mismatches} files whose answers are not "
          f"one per kernel, {failed} predict processes that did not exit 0")
    return 0 if mismatches == 0 and failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
