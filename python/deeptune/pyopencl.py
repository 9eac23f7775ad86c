"""The advisor for PyOpenCL programs: which of a context's devices should run a launch.

    import pyopencl as cl, deeptune.pyopencl as dtcl
    choice = dtcl.choose_device(ctx, source, global_size=(n,), local_size=(256,),
                                buffers=[a_buf, b_buf, out_buf])
    queue = cl.CommandQueue(ctx, choice.device)

The bytes a launch moves are counted by the paper's rule: a read-only buffer once, any other
buffer twice (in and back). Nothing is launched here: the program keeps its context, queues
and buffers.
"""

from dataclasses import dataclass

import pyopencl as cl

from . import _deeptune

_default_advisors = {}


@dataclass(frozen=True)
class Choice:
    """The advisor's choice for a launch: `device` (a pyopencl.Device of the candidates) and the
    advisor's `decision` (deeptune.Decision: type, probability, fallback, reason...)."""

    device: "cl.Device"
    decision: "_deeptune.Decision"


def transfer_bytes(buffers):
    """Bytes a launch moves: each pyopencl Buffer once if created READ_ONLY, else twice; an
    (nbytes, read_only) pair counts likewise; a numpy array (host data copied in and back)
    twice."""
    total = 0
    for buffer in buffers:
        if isinstance(buffer, cl.MemoryObjectHolder):
            read_only = bool(buffer.flags & cl.mem_flags.READ_ONLY)
            total += buffer.size * (1 if read_only else 2)
        elif isinstance(buffer, tuple) and len(buffer) == 2:
            nbytes, read_only = buffer
            if not isinstance(nbytes, int) or nbytes < 0:
                raise _deeptune.LaunchError(f"buffer size {nbytes!r}: expected bytes >= 0")
            total += nbytes * (1 if read_only else 2)
        elif hasattr(buffer, "nbytes"):
            total += int(buffer.nbytes) * 2
        else:
            raise TypeError(f"buffers: expected pyopencl Buffers, (nbytes, read_only) pairs or "
                            f"numpy arrays, got {type(buffer).__name__}")
    return total


def _candidates(devices):
    if isinstance(devices, cl.Context):
        return list(devices.devices)
    if isinstance(devices, cl.Device):
        return [devices]
    return list(devices)


def choose_device(devices, source, global_size, local_size=None, *, buffers=(),
                  transfer=None, kernel="", build_options="", advisor=None):
    """The device of `devices` (a pyopencl Context, or Devices in order of preference) that
    should run `kernel` of `source` over `global_size` (local size `local_size`, None: the
    driver's), moving the bytes of `buffers` (or `transfer` bytes). `advisor`: a
    deeptune.Advisor (default: one per process with the bundled 'amd' model). Returns a Choice.
    Raises deeptune.LaunchError when no device can run the range."""
    candidates = _candidates(devices)
    if advisor is None:
        advisor = _default_advisors.get("amd")
        if advisor is None:
            advisor = _default_advisors.setdefault("amd", _deeptune.Advisor(platform="amd"))
    moved = transfer_bytes(buffers) if transfer is None else transfer
    decision = advisor.advise(source, candidates, global_size, local_size,
                              transfer_bytes=moved, kernel=kernel, build_options=build_options)
    by_handle = {device.int_ptr: device for device in candidates}
    return Choice(device=by_handle[decision.cl_device], decision=decision)


@dataclass(frozen=True)
class Coarsening:
    """A kernel coarsened by the factor the model chose, ready to build and launch: `source`
    and `kernel` (build these), `global_size` and `local_size` (launch with these), `factor`,
    and the model's `decision` (deeptune.FactorDecision)."""

    source: str
    kernel: str
    factor: int
    global_size: tuple
    local_size: tuple
    decision: "_deeptune.FactorDecision"


def _sizes(value):
    if value is None:
        return None
    return tuple([value] if isinstance(value, int) else value)


def coarsen_for_launch(source, global_size, local_size=None, *, kernel="", gpu="tahiti",
                       predictor=None, defines=()):
    """The kernel coarsened by the factor the coarsening model chooses (`gpu`: a bundled
    model's GPU, or `predictor`: a deeptune.CoarseningPredictor), with the sizes to launch it
    by the host rule: global size of dimension 0 divided by the factor, the local size too when
    the kernel reads it. A factor the sizes do not allow is halved until they do (1 at worst:
    the source as it is). `defines`: the host's -D definitions ('N=8'), as a list."""
    if predictor is None:
        predictor = _deeptune.CoarseningPredictor(gpu)
    defines = list(defines)
    decision = predictor.predict(source, kernel=kernel, defines=defines)
    global_size, local_size = _sizes(global_size), _sizes(local_size)
    factor = decision.factor
    if factor == 1:
        return Coarsening(source, decision.kernel, 1, global_size, local_size, decision)
    # Whether the local size is divided too depends on the kernel, not on the factor.
    coarsened = _deeptune.coarsen(source, factor, kernel=kernel, defines=defines)
    divided = coarsened.local_size_divided and local_size is not None

    def launch_sizes(f):
        """The sizes to launch the kernel coarsened by `f` with, or None if they do not allow f."""
        if global_size[0] % f or (divided and local_size[0] % f):
            return None
        new_global = (global_size[0] // f,) + global_size[1:]
        new_local = ((local_size[0] // f,) + local_size[1:]) if divided else local_size
        if new_local is not None and new_global[0] % new_local[0]:
            return None
        return new_global, new_local

    while factor > 1 and launch_sizes(factor) is None:
        factor //= 2
    if factor == 1:
        return Coarsening(source, decision.kernel, 1, global_size, local_size, decision)
    if factor != coarsened.factor:
        coarsened = _deeptune.coarsen(source, factor, kernel=kernel, defines=defines)
    new_global, new_local = launch_sizes(factor)
    return Coarsening(coarsened.source, coarsened.kernel, factor, new_global, new_local, decision)
