"""The PyOpenCL example end to end on PoCL, and the helper's parts."""

import subprocess
import sys

import pytest

import deeptune
from conftest import KERNELS, ROOT

cl = pytest.importorskip("pyopencl")
import deeptune.pyopencl as dtcl  # noqa: E402 (after the skip)

SAXPY = (KERNELS / "saxpy.cl").read_text()


def test_the_example_runs_and_verifies():
    done = subprocess.run([sys.executable, str(ROOT / "python/examples/pyopencl_launch.py")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "all results verified" in done.stdout
    assert "advisor: " in done.stdout


def test_transfer_bytes_by_the_papers_rule():
    context = cl.create_some_context(interactive=False)
    flags = cl.mem_flags
    read_only = cl.Buffer(context, flags.READ_ONLY, 4096)
    read_write = cl.Buffer(context, flags.READ_WRITE, 1024)
    assert dtcl.transfer_bytes([read_only, read_write]) == 4096 + 2 * 1024
    assert dtcl.transfer_bytes([(100, True), (10, False)]) == 120
    with pytest.raises(deeptune.LaunchError):
        dtcl.transfer_bytes([(-5, True)])
    with pytest.raises(TypeError):
        dtcl.transfer_bytes(["buffer"])


def test_choose_device_from_a_context_and_from_devices():
    devices = [d for p in cl.get_platforms() for d in p.get_devices()]
    context = cl.Context(devices)
    by_context = dtcl.choose_device(context, SAXPY, (1 << 20,), (256,), transfer=12 << 20)
    by_devices = dtcl.choose_device(devices, SAXPY, (1 << 20,), (256,), transfer=12 << 20)
    assert by_context.device in devices and by_context.device == by_devices.device
    with pytest.raises(deeptune.LaunchError):
        dtcl.choose_device(context, SAXPY, (1 << 20,), (1 << 20,))


def test_coarsen_for_launch_follows_the_host_rule():
    coarse = dtcl.coarsen_for_launch(SAXPY, (1 << 20,), (256,), gpu="tahiti")
    model = deeptune.CoarseningPredictor("tahiti").predict(SAXPY)
    assert coarse.decision.factor == model.factor
    assert coarse.global_size[0] * coarse.factor == 1 << 20
    odd = dtcl.coarsen_for_launch(SAXPY, (3,), None, gpu="tahiti")
    assert odd.factor == 1 and odd.source == SAXPY and odd.global_size == (3,)
