"""Shared fixtures of the Python package's tests: where the build tree, the CLI and the data are.
ctest sets DEEPTUNE_BUILD_DIR and PYTHONPATH (the build tree's python/ folder)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

# PoCL's two CPU devices that differ, before anything in the process initializes OpenCL.
os.environ.setdefault("POCL_DEVICES", "pthread basic")

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("DEEPTUNE_BUILD_DIR", ROOT / "build"))
CLI = BUILD / "bin" / "deeptune"
DATA = Path(os.environ.get("DEEPTUNE_DATA", ROOT.parent / "shared" / "data" / "deeptune"))
KERNELS = ROOT / "kernels"


def run_cli(*args, check=True):
    """The CLI's stdout, or (stdout, stderr, exit status) when check=False."""
    done = subprocess.run([str(CLI), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    if not check:
        return done.stdout, done.stderr, done.returncode
    assert done.returncode == 0, done.stderr
    return done.stdout


def cli_json_lines(*args):
    return [json.loads(line) for line in run_cli(*args).splitlines() if line.startswith("{")]


def cli_error(*args):
    """The one-line error the CLI prints for `args` (without its "deeptune: ..." prefix)."""
    _, stderr, status = run_cli(*args, check=False)
    assert status == 2, stderr
    line = stderr.strip().splitlines()[-1]
    assert line.startswith("deeptune: ")
    return line[len("deeptune: "):]


@pytest.fixture(scope="session")
def amd():
    import deeptune

    return deeptune.Predictor("amd")

