"""The Advisor from Python: PoCL devices as candidates, legality, fallback, cache."""

import pytest

import deeptune
from conftest import KERNELS

SAXPY = (KERNELS / "saxpy.cl").read_text()
cl = pytest.importorskip("pyopencl")


@pytest.fixture(scope="module")
def devices():
    found = [d for p in cl.get_platforms() for d in p.get_devices()]
    assert len(found) >= 2, "PoCL's pthread and basic devices are needed"
    return found


def test_advice_lands_on_a_candidate_and_is_cached(devices):
    advisor = deeptune.Advisor(platform="amd")
    first = advisor.advise(SAXPY, devices, (1 << 20,), (256,), transfer_bytes=12 << 20)
    assert first.cl_device in {d.int_ptr for d in devices}
    assert first.device in ("CPU", "GPU") and not first.fallback and not first.cached
    again = advisor.advise(SAXPY, [d.int_ptr for d in devices], 1 << 20, 256,
                           transfer_bytes=12 << 20)
    assert again.cached and again.cl_device == first.cl_device
    assert again.probability == first.probability and advisor.model_calls == 1
    # The model's own answer for the same launch, from the same bundled model.
    model = deeptune.Predictor("amd").predict(SAXPY, dsize=12 << 20, wgsize=256)
    assert (first.device, first.probability) == (model.device, model.probability)


def test_legality_and_fallback(devices):
    advisor = deeptune.Advisor(platform="amd")
    with pytest.raises(deeptune.LaunchError, match="local size|work-group"):
        advisor.advise(SAXPY, devices, (1 << 20,), (1 << 20,))
    with pytest.raises(deeptune.LaunchError, match="not a multiple of the local size"):
        advisor.advise(SAXPY, devices, (1000,), (256,))
    broken = advisor.advise("__kernel void k( {", devices, 1024, 64, transfer_bytes=1 << 30)
    assert broken.fallback and broken.method == "fallback" and broken.reason
    assert broken.device == "GPU" and broken.cl_device in {d.int_ptr for d in devices}


def test_missing_model_falls_back(devices, tmp_path):
    advisor = deeptune.Advisor(tmp_path / "none.model")
    assert advisor.model_problem
    decision = advisor.advise(SAXPY, devices, 1024, 64, transfer_bytes=4096)
    assert decision.fallback and decision.device == "CPU"


def test_min_probability_and_novelty(devices):
    """Issue 44: an answer less sure than min_probability gives way to the fallback; every
    answer says how far the kernel is from the model's training programs."""
    model = deeptune.Predictor("amd").predict(SAXPY, dsize=12 << 20, wgsize=256)
    assert 0 <= model.nearest_distance <= 1 and model.unknown_share == 0
    assert model.to_dict()["nearest_distance"] == model.nearest_distance
    sure = deeptune.Advisor(platform="amd", min_probability=model.probability)
    kept = sure.advise(SAXPY, devices, (1 << 20,), (256,), transfer_bytes=12 << 20)
    assert not kept.fallback and kept.device == model.device
    unsure = deeptune.Advisor(platform="amd", min_probability=min(1.0, model.probability + 0.01))
    fell = unsure.advise(SAXPY, devices, (1 << 20,), (256,), transfer_bytes=12 << 20)
    assert fell.fallback and "unsure" in fell.reason
    assert fell.device == "CPU"  # 12 MiB: the fallback's rule says CPU below 64 MiB
    for bad in (-0.5, 1.5, float("nan")):
        with pytest.raises(deeptune.LaunchError, match="minProbability"):
            deeptune.Advisor(platform="amd", min_probability=bad)
