"""Threads and forked processes get the same decisions as one thread does."""

import multiprocessing
import os
import threading

import deeptune
from conftest import KERNELS

FILES = sorted(KERNELS.glob("*.cl"))[:24]
LAUNCHES = [(f.read_text(), 1 << (10 + i % 20), 1 << (i % 9)) for i, f in enumerate(FILES)]


def decide(predictor, launches):
    return [(d.device, d.probability, d.kernel) for d in
            (predictor.predict(s, dsize=dsize, wgsize=wg) for s, dsize, wg in launches)]


def wait_for_child(pid, what, seconds=120):
    """The exit status of forked child `pid`; kills it and fails the test when it hangs."""
    for _ in range(int(seconds / 0.05)):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        threading.Event().wait(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    raise AssertionError(f"{what}: the forked child hung")


def test_threads_sharing_a_predictor_agree_with_one_thread():
    expected = decide(deeptune.Predictor("nvidia-deeptune"), LAUNCHES)
    shared = deeptune.Predictor("nvidia-deeptune")
    results, errors = {}, []

    def work(index):
        try:
            order = LAUNCHES[index:] + LAUNCHES[:index]  # each thread starts elsewhere
            got = decide(shared, order)
            results[index] = got[len(LAUNCHES) - index:] + got[:len(LAUNCHES) - index]
            deeptune.rewrite(LAUNCHES[index][0])  # a rewriter of its own thread
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert all(results[i] == expected for i in range(6))


def _child_decisions(arguments):
    predictor_name, launch = arguments
    predictor = _FORKED[predictor_name]
    source, dsize, wg = launch
    decision = predictor.predict(source, dsize=dsize, wgsize=wg)
    return decision.device, decision.probability


_FORKED = {}


def test_multiprocessing_fork_pool_agrees():
    predictor = deeptune.Predictor("amd")
    expected = [(d, p) for d, p, _ in decide(predictor, LAUNCHES)]
    _FORKED["amd"] = predictor  # used before the fork: its rewriter worker is the parent's
    with multiprocessing.get_context("fork").Pool(3) as pool:
        got = pool.map(_child_decisions, [("amd", launch) for launch in LAUNCHES])
    assert got == expected
    assert decide(predictor, LAUNCHES[:3]) == decide(deeptune.Predictor("amd"), LAUNCHES[:3])


def test_os_fork_after_use_then_new_kernels_in_both():
    predictor = deeptune.Predictor("amd")
    advisor = deeptune.Advisor()
    predictor.predict(LAUNCHES[0][0], dsize=4096, wgsize=64)
    fresh = "__kernel void fresh(__global float* a) { a[get_global_id(0)] += 1.0f; }\n"
    expected = deeptune.Predictor("amd").predict(fresh, dsize=4096, wgsize=64).probability
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a new kernel (a new rewriter worker of its own), then report
        code = 1
        try:
            os.close(read_end)
            got = predictor.predict(fresh, dsize=4096, wgsize=64).probability
            rewritten = deeptune.rewrite(fresh)
            import pyopencl as cl

            devices = [d for p in cl.get_platforms() for d in p.get_devices()]
            advised = advisor.advise(fresh, devices, 1024, 64, transfer_bytes=4096)
            ok = got == expected and "__kernel" in rewritten and not advised.fallback
            os.write(write_end, b"ok" if ok else b"wrong")
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        answer = pipe.read()
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert answer == b"ok"
    assert predictor.predict(fresh, dsize=4096, wgsize=64).probability == expected


def fork_while_threads_call(call_in_thread, child_ok, rounds):
    """3 threads repeat call_in_thread(thread, i) while this one forks `rounds` times; each child
    must get child_ok(round) true (exit 0) without hanging, and no thread may fail."""
    stop = threading.Event()
    errors = []

    def hammer(thread):
        try:
            i = 0
            while not stop.is_set():
                call_in_thread(thread, i)
                i += 1
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(error)

    threads = [threading.Thread(target=hammer, args=(t,)) for t in range(3)]
    for thread in threads:
        thread.start()
    try:
        for round_ in range(rounds):
            pid = os.fork()
            if pid == 0:
                os._exit(0 if child_ok(round_) else 3)
            status = wait_for_child(pid, f"round {round_}")
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, round_
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert not errors


def test_fork_while_threads_are_inside_calls():
    predictor = deeptune.Predictor("amd")
    expected = decide(deeptune.Predictor("amd"), LAUNCHES)

    def in_thread(_thread, _i):
        assert decide(predictor, LAUNCHES[:6]) == expected[:6], "wrong decision in a thread"

    def in_child(round_):  # the shared predictor, whole and free
        return decide(predictor, LAUNCHES[round_:round_ + 3]) == expected[round_:round_ + 3]

    fork_while_threads_call(in_thread, in_child, rounds=8)


def test_fork_while_threads_are_inside_advise():
    import pyopencl as cl

    devices = [d for p in cl.get_platforms() for d in p.get_devices()]
    advisor = deeptune.Advisor()

    def in_thread(thread, i):  # new kernels and sizes: the model runs again and again
        j = thread * 7 + i
        source, dsize, _ = LAUNCHES[j % len(LAUNCHES)]
        advisor.advise(source, devices, 1024, 64, transfer_bytes=dsize + j)

    def in_child(round_):
        decision = advisor.advise(LAUNCHES[round_][0], devices, 1024, 64,
                                  transfer_bytes=12345 + round_)
        return not decision.fallback

    fork_while_threads_call(in_thread, in_child, rounds=6)


def test_calls_release_the_gil():
    """While a batch of new kernels is decided in one thread, this thread keeps running: its
    longest pause is far shorter than the call (holding the GIL would pause it throughout)."""
    predictor = deeptune.Predictor("amd")
    # Enough distinct texts that the call lasts well past 0.2 s on an idle machine too.
    sources = [f.read_text() + f"\n// variant {i}\n" for i in range(6) for f in FILES]
    done = threading.Event()
    span = {}

    def work():
        import time

        span["start"] = time.perf_counter()
        predictor.predict_batch(sources, [4096.0] * len(sources), [64.0] * len(sources))
        span["end"] = time.perf_counter()
        done.set()

    import time

    thread = threading.Thread(target=work)
    thread.start()
    stamps = []
    while not done.is_set():
        stamps.append(time.perf_counter())
    thread.join()
    inside = [t for t in stamps if span["start"] <= t <= span["end"]]
    call = span["end"] - span["start"]
    assert call > 0.2, "the batch was too quick to tell"
    gaps = [b - a for a, b in zip([span["start"]] + inside, inside + [span["end"]])]
    assert max(gaps) < call / 2, (max(gaps), call)
