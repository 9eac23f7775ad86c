#!/usr/bin/python3
"""Runs every command line of README.md as a new user would (issue 45), after the set-up.

Usage: scripts/readme-commands.py [--build DIR] [--data DIR] [--with-long] [--list]

Takes the README's indented command lines (those starting with build/bin/, scripts/, cmake,
cat, PYTHONPATH=; not scripts/setup.sh, test.sh, test-sanitizers.sh, which set up and test),
joins continued lines, drops the comment and the optional [...] parts, and runs each with bash,
in order, in a scratch folder laid out as a checkout (build/ linked to the build folder, default
this checkout's build/; scripts/ and python/ linked; kernels/ and models/ copied) beside a ../shared whose data/deeptune is DIR (default: this checkout's
../shared/data/deeptune) and whose corpus is this checkout's. POCL_DEVICES="pthread basic".
A line whose comment marks it long ("(long)", "(long: 5 min)", "...; long)") is skipped unless
--with-long. Prints one
line per command (ok, skipped or FAILED with its exit code and last error line) and exits 1
when one failed.
"""
import argparse
import os
import re
import subprocess
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
STARTS = ("build/bin/", "scripts/", "cmake ", "cat ", "PYTHONPATH=")
SETUP = ("scripts/setup.sh", "scripts/test.sh", "scripts/test-sanitizers.sh")


def readme_commands(path):
    """The README's command lines: (line number, command, comment)."""
    lines = open(path, encoding="utf-8").read().splitlines()
    commands = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("    ") and line.strip().startswith(STARTS):
            number, text = i + 1, line.strip()
            while text.endswith("\\") and i + 1 < len(lines):  # a continued line
                i += 1
                text = text[:-1].rstrip() + " " + lines[i].strip()
            match = re.search(r"\s+#\s(.*)$", text)
            comment = match.group(1) if match else ""
            command = text[:match.start()] if match else text
            command = re.sub(r"\s*\[[^\]]*\]", "", command).strip()  # optional parts
            if not command.startswith(SETUP):
                commands.append((number, command, comment))
        i += 1
    return commands


def scratch_checkout(base, data, build):
    """A folder laid out as a checkout (its build/ `build`) beside a ../shared holding `data`."""
    checkout = os.path.join(base, "checkout")
    os.makedirs(os.path.join(base, "shared", "data"))
    os.symlink(os.path.abspath(data), os.path.join(base, "shared", "data", "deeptune"))
    corpus = os.path.join(ROOT, "..", "shared", "corpus")
    if os.path.isdir(corpus):
        os.symlink(os.path.abspath(corpus), os.path.join(base, "shared", "corpus"))
    os.makedirs(checkout)
    os.symlink(os.path.abspath(build), os.path.join(checkout, "build"))
    for name in ("scripts", "python"):
        os.symlink(os.path.join(ROOT, name), os.path.join(checkout, name))
    for name in ("kernels", "models"):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(checkout, name))
    return checkout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "deeptune"))
    parser.add_argument("--with-long", action="store_true")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    commands = readme_commands(os.path.join(ROOT, "README.md"))
    if args.list:
        for number, command, comment in commands:
            long = re.search(r"\(long\b|\blong\)", comment)
            print(f"README.md:{number}: {command}" + ("   (long)" if long else ""))
        return 0
    failed = 0
    env = dict(os.environ, POCL_DEVICES="pthread basic")
    with tempfile.TemporaryDirectory(prefix="deeptune-readme-") as base:
        checkout = scratch_checkout(base, args.data, args.build)
        for number, command, comment in commands:
            if re.search(r"\(long\b|\blong\)", comment) and not args.with_long:
                print(f"skipped README.md:{number} (long): {command}")
                continue
            started = time.monotonic()
            done = subprocess.run(["bash", "-c", command], cwd=checkout, env=env,
                                  capture_output=True, text=True, errors="replace", timeout=1800)
            took = time.monotonic() - started
            if done.returncode == 0:
                print(f"ok {took:.1f}s README.md:{number}: {command}")
            else:
                failed += 1
                last = (done.stderr.strip().splitlines() or [""])[-1]
                print(f"FAILED (exit {done.returncode}) README.md:{number}: {command}\n    {last}")
    print(f"{len(commands)} README commands, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
