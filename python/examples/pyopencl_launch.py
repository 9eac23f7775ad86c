#!/usr/bin/python3
"""A PyOpenCL program that asks DeepTune's advisor where to run a kernel, runs it there and
checks the result against numpy; then runs the kernel coarsened by the factor the coarsening
model chooses, and checks that too. Run: python3 python/examples/pyopencl_launch.py
(PYTHONPATH=build/python from the build tree). Exit status 0 when both results are right."""

import sys
from pathlib import Path

import numpy
import pyopencl as cl

import deeptune.pyopencl as dtcl

KERNEL = Path(__file__).resolve().parents[2] / "kernels" / "saxpy.cl"


def run_saxpy(context, device, source, kernel, x, y, alpha, global_size, local_size):
    """y' = alpha * x + y on `device`; returns y'."""
    queue = cl.CommandQueue(context, device)
    program = cl.Program(context, source).build(devices=[device])
    flags = cl.mem_flags
    x_buffer = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=x)
    y_buffer = cl.Buffer(context, flags.READ_WRITE | flags.COPY_HOST_PTR, hostbuf=y)
    getattr(program, kernel)(queue, global_size, local_size, x_buffer, y_buffer,
                             numpy.float32(alpha), numpy.int32(x.size))
    result = numpy.empty_like(y)
    cl.enqueue_copy(queue, result, y_buffer)
    queue.finish()
    return result


def main():
    source = KERNEL.read_text()
    platforms = cl.get_platforms()
    if not platforms:
        print("no OpenCL platform", file=sys.stderr)
        return 1
    devices = [device for platform in platforms for device in platform.get_devices()]
    context = cl.Context(devices[:1] if len({d.platform for d in devices}) > 1 else devices)
    n = 1 << 20
    rng = numpy.random.default_rng(7)
    x = rng.random(n, dtype=numpy.float32)
    y = rng.random(n, dtype=numpy.float32)
    expected = numpy.float32(2.5) * x + y

    # Where to run: the advisor reads the source, the sizes and the bytes the buffers move.
    buffers = [(x.nbytes, True), (y.nbytes, False)]
    choice = dtcl.choose_device(context, source, (n,), (256,), buffers=buffers)
    decision = choice.decision
    print(f"advisor: {decision.device} (probability {decision.probability:.2f}, "
          f"{decision.method}) -> {choice.device.name}" + (f"; {decision.note}" if decision.note
                                                           else ""))
    result = run_saxpy(context, choice.device, source, "saxpy", x, y, 2.5, (n,), (256,))
    if not numpy.allclose(result, expected, rtol=1e-6):
        print("saxpy: wrong result", file=sys.stderr)
        return 1
    print(f"saxpy verified on {choice.device.name}")

    # How to coarsen it: the model's factor, the coarsened source and the sizes to launch it.
    coarse = dtcl.coarsen_for_launch(source, (n,), (256,), gpu="tahiti")
    result = run_saxpy(context, choice.device, coarse.source, coarse.kernel, x, y, 2.5,
                       coarse.global_size, coarse.local_size)
    if not numpy.allclose(result, expected, rtol=1e-6):
        print(f"saxpy coarsened by {coarse.factor}: wrong result", file=sys.stderr)
        return 1
    print(f"saxpy coarsened by {coarse.factor} (probability {coarse.decision.probability:.2f}) "
          f"verified: global {coarse.global_size}, local {coarse.local_size}")
    print("all results verified")
    return 0


if __name__ == "__main__":
    sys.exit(main())
