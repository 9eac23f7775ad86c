#!/usr/bin/python3
"""Normalizes every kernel of the unlabelled OpenCL corpus the way the labelled data is normalized.

Usage: scripts/normalize-corpus.py [--corpus DIR] [--out DIR] [--deeptune BIN] [--force]

Each file of the corpus's MANIFEST.csv that holds a kernel goes through
`deeptune rewrite --all-kernels --json` (the rewriter's own rules: one extract per kernel, as the
paper's data), with every folder of its repository as an include folder. The output is cached in
the build tree (default build/corpus/):
  kernels/<repository>/<path>.<kernel>.cl   one normalized kernel per file, duplicates dropped
  files.csv                                 one row per corpus file: status, kernels, reason
  summary.md                                pass rate per repository and failures per reason
A second run with the same corpus manifest and the same deeptune binary does nothing (--force
runs it again). The result is deterministic: files in manifest order, outputs named by path.
"""
import argparse
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Why a file fails, from the first error the rewriter reports: (reason, pattern), first match wins.
REASONS = [
    ("missing header (not in the corpus)", r"file not found"),
    ("#error: needs a host-side definition", r":\d+:\d+: \".*\"$|must be defined"),
    ("OpenCL 2.0 or later feature",
     r"OpenCL C version 2|__opencl_c_|\bpipe\b|enqueue_kernel|blocks support|generic address|"
     r"program scope variable|changes address space of pointer|atomic_(int|uint|flag|float)|"
     r"memory_order"),
    ("half precision without cl_khr_fp16 enabled", r"cl_khr_fp16|\bhalf\b"),
    ("host-side macro or type (text that is not C until the host defines it)",
     r"unknown type name|use of undeclared identifier|expected|must be a constant|"
     r"undeclared|not a type|by zero in preprocessor expression|cannot combine with previous"),
    ("a builtin overload or extension OpenCL C 1.2 lacks",
     r"no matching function for call|not supported|must have the 'overloadable'"),
    ("no kernel left after preprocessing (kernels behind the host's #if)",
     r"no kernel found by the rewriter"),
    ("no kernel code (fewer than 3 lines, or helpers only)",
     r"no code|no function definition"),
    ("over the rewriter's bounds", r"too (large|long|deep)|more than|limit"),
]


def classify(message, source_path):
    with open(source_path, errors="replace") as stream:
        if re.search(r'^\s*R"\(', stream.read(), re.MULTILINE):
            return "C++ raw-string wrapper (the host embeds the source)"
    for reason, pattern in REASONS:
        if re.search(pattern, message):
            return reason
    return "other compile error"


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(corpus):
    with open(os.path.join(corpus, "MANIFEST.csv"), newline="") as stream:
        rows = list(csv.DictReader(stream))
    for row in rows:
        row["folder"] = row["repository"].replace("/", "+")
        row["local"] = os.path.join(corpus, row["folder"], row["path"])
    return rows


def include_folders(corpus, folder):
    """Every folder of a repository's part of the corpus, sorted."""
    found = set()
    for parent, _, files in os.walk(os.path.join(corpus, folder)):
        if files:
            found.add(parent)
    return sorted(found)


def rewrite(deeptune, files, includes):
    """Runs the rewriter on `files`; returns ({file: [(kernel, text)]}, {file: error})."""
    command = [deeptune, "rewrite", "--all-kernels", "--json"]
    for folder in includes:
        command += ["-I", folder]
    done = subprocess.run(command + files, capture_output=True, text=True, errors="replace")
    kernels, errors = {}, {}
    for line in done.stdout.splitlines():
        entry = json.loads(line)
        kernels.setdefault(entry["file"], []).append((entry["kernel"], entry["text"]))
    for line in done.stderr.splitlines():
        for name in files:
            if line.startswith("deeptune: " + name + ":"):
                errors.setdefault(name, line[len("deeptune: "):])
    if done.returncode not in (0, 2):
        raise SystemExit("normalize-corpus: deeptune rewrite failed (exit %d): %s"
                         % (done.returncode, done.stderr.strip()[-300:]))
    return kernels, errors


def labelled_sources(data):
    """The labelled programs' sources without layout, to keep them out of the corpus."""
    found = set()
    for name in ("cgo17-amd.csv", "cgo17-nvidia.csv", "pact-2014-runtimes.csv"):
        path = os.path.join(data, name)
        if not os.path.exists(path):
            continue
        csv.field_size_limit(1 << 24)
        with open(path, newline="") as stream:
            for row in csv.DictReader(stream):
                found.add(re.sub(r"\s+", "", row["src"]))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "opencl"))
    parser.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "deeptune"))
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "corpus"))
    parser.add_argument("--deeptune", default=os.path.join(ROOT, "build", "bin", "deeptune"))
    parser.add_argument("--batch", type=int, default=40, help="files per rewrite process")
    parser.add_argument("--force", action="store_true", help="run again even if cached")
    args = parser.parse_args()
    corpus = os.path.normpath(args.corpus)
    if not os.path.isfile(os.path.join(corpus, "MANIFEST.csv")):
        print("normalize-corpus: %s: no MANIFEST.csv" % corpus, file=sys.stderr)
        return 2
    stamp = "manifest sha256 %s, deeptune sha256 %s" % (
        sha256_of(os.path.join(corpus, "MANIFEST.csv")), sha256_of(args.deeptune))
    stamp_path = os.path.join(args.out, "stamp")
    if not args.force and os.path.exists(stamp_path) and open(stamp_path).read() == stamp:
        print("normalize-corpus: %s is up to date" % args.out)
        return 0

    rows = [row for row in read_manifest(corpus) if int(row["kernels"]) > 0]
    work = args.out + ".partial"
    if os.path.lexists(work):
        shutil.rmtree(work)
    os.makedirs(os.path.join(work, "kernels"))
    labelled = labelled_sources(args.data)
    seen = set()
    results = []
    by_repository = {}
    for row in rows:
        by_repository.setdefault(row["folder"], []).append(row)
    done_files = 0
    for folder in sorted(by_repository):
        group = by_repository[folder]
        includes = include_folders(corpus, folder)
        for first in range(0, len(group), args.batch):
            batch = group[first:first + args.batch]
            kernels, errors = rewrite(args.deeptune, [r["local"] for r in batch], includes)
            for row in batch:
                result = {"repository": row["repository"], "path": row["path"], "kernels": 0,
                          "duplicates": 0, "labelled": 0, "reason": "", "error": ""}
                if row["local"] in errors or row["local"] not in kernels:
                    message = errors.get(row["local"], "no kernel found by the rewriter")
                    result["status"] = "failed"
                    result["reason"] = classify(message, row["local"])
                    result["error"] = message.replace(corpus + "/", "")
                else:
                    result["status"] = "passed"
                    for kernel, text in kernels[row["local"]]:
                        bare = re.sub(r"\s+", "", text)
                        if bare in labelled:
                            result["labelled"] += 1
                            continue
                        if bare in seen:
                            result["duplicates"] += 1
                            continue
                        seen.add(bare)
                        target = os.path.join(work, "kernels", folder, row["path"] + "." + kernel + ".cl")
                        os.makedirs(os.path.dirname(target), exist_ok=True)
                        with open(target, "w") as stream:
                            stream.write(text + "\n")
                        result["kernels"] += 1
                results.append(result)
            done_files += len(batch)
            print("normalize-corpus: %d of %d files" % (done_files, len(rows)), file=sys.stderr)

    with open(os.path.join(work, "files.csv"), "w", newline="") as stream:
        fields = ["repository", "path", "status", "kernels", "duplicates", "labelled", "reason", "error"]
        writer = csv.DictWriter(stream, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(results)
    write_summary(os.path.join(work, "summary.md"), results, stamp)
    with open(os.path.join(work, "stamp"), "w") as stream:
        stream.write(stamp)
    if os.path.lexists(args.out):
        shutil.rmtree(args.out)
    os.rename(work, args.out)
    passed = sum(r["status"] == "passed" for r in results)
    print("normalize-corpus: %d of %d files passed, %d distinct kernels in %s/kernels"
          % (passed, len(results), sum(r["kernels"] for r in results), args.out))
    return 0


def write_summary(path, results, stamp):
    lines = ["# The corpus through the rewriter", "", "(%s)" % stamp, "",
             "| repository | files | passed | pass rate | kernels kept | duplicates | labelled |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    repositories = sorted({r["repository"] for r in results})
    for repository in repositories + [None]:
        mine = [r for r in results if repository is None or r["repository"] == repository]
        passed = sum(r["status"] == "passed" for r in mine)
        lines.append("| %s | %d | %d | %.1f%% | %d | %d | %d |" % (
            repository or "**all**", len(mine), passed, 100.0 * passed / max(1, len(mine)),
            sum(r["kernels"] for r in mine), sum(r["duplicates"] for r in mine),
            sum(r["labelled"] for r in mine)))
    lines += ["", "| why a file failed | files | repositories |", "|---|---:|---|"]
    reasons = {}
    for r in results:
        if r["status"] == "failed":
            reasons.setdefault(r["reason"], []).append(r["repository"])
    for reason, repos in sorted(reasons.items(), key=lambda item: -len(item[1])):
        counts = {}
        for repository in repos:
            counts[repository] = counts.get(repository, 0) + 1
        where = ", ".join("%s %d" % (k.split("/")[1], v) for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))
        lines.append("| %s | %d | %s |" % (reason, len(repos), where))
    with open(path, "w") as stream:
        stream.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
