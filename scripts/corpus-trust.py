#!/usr/bin/python3
"""How sure the device models are on the corpus, and how far its kernels are from their training
programs (issue 44): `deeptune predict --dsize 16777216 --wgsize 256 --json` over every
normalized corpus kernel (scripts/normalize-corpus.py writes them to build/corpus/kernels).

Usage: scripts/corpus-trust.py [--kernels DIR] [--deeptune BIN] MODEL...

Prints, per model: answers, the share whose probability is at least 0.96 and 0.99, the mean
probability, and the quartiles of the nearest-program distance (where the model keeps its
programs) and the share of kernels with unknown characters.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHUNK = 200


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", default=os.path.join(ROOT, "build", "corpus", "kernels"))
    parser.add_argument("--deeptune", default=os.path.join(ROOT, "build", "bin", "deeptune"))
    parser.add_argument("models", nargs="+")
    args = parser.parse_args()
    if not os.path.isdir(args.kernels):
        print(f"{args.kernels}: no such folder (run scripts/normalize-corpus.py)", file=sys.stderr)
        return 2
    files = sorted(os.path.join(parent, f) for parent, _, names in os.walk(args.kernels)
                   for f in names if f.endswith(".cl"))
    for model in args.models:
        answers = []
        for start in range(0, len(files), CHUNK):
            done = subprocess.run(
                [args.deeptune, "predict", "--dsize", "16777216", "--wgsize", "256", "--json",
                 "--model", model] + files[start:start + CHUNK],
                capture_output=True, text=True, errors="replace")
            answers += [json.loads(line) for line in done.stdout.splitlines()]
        p = [a["probability"] for a in answers]
        line = (f"{model}: {len(answers)} answers of {len(files)} kernels; probability >= 0.96: "
                f"{sum(x >= 0.96 for x in p) / len(p):.1%}, >= 0.99: "
                f"{sum(x >= 0.99 for x in p) / len(p):.1%}, mean {statistics.mean(p):.3f}")
        distances = [a["nearest_distance"] for a in answers if a.get("nearest_distance") is not None]
        if distances:
            q = statistics.quantiles(distances, n=4)
            line += (f"; nearest-program distance quartiles {q[0]:.3f} / {q[1]:.3f} / {q[2]:.3f}"
                     f", with unknown characters: "
                     f"{sum(a['unknown_share'] > 0 for a in answers) / len(answers):.1%}")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
