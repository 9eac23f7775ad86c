"""Predictor and CoarseningPredictor from Python give the CLI's decisions, one by one or in a
batch."""

import json

import numpy
import pytest

import deeptune
from conftest import KERNELS, cli_json_lines

SINGLE_KERNEL_FILES = ["vector_add.cl", "saxpy.cl", "mandelbrot.cl", "matmul_tiled.cl",
                       "reduce_sum.cl", "sobel.cl", "nbody.cl", "histogram_local.cl"]


@pytest.mark.parametrize("model", ["amd", "nvidia", "amd-deeptune", "nvidia-deeptune"])
def test_predict_gives_the_cli_json(model):
    predictor = deeptune.Predictor(model)
    for dsize, wgsize in [(8388608, 256), (4096, 64), (1 << 30, 1024)]:
        files = [f"kernels/{name}" for name in SINGLE_KERNEL_FILES]
        expected = cli_json_lines("predict", *files, "--dsize", dsize, "--wgsize", wgsize,
                                  "--platform", model, "--json")
        assert len(expected) == len(files)
        for file, cli in zip(files, expected):
            source = (KERNELS.parent / file).read_text()
            decision = predictor.predict(source, dsize=dsize, wgsize=wgsize, file_name=file)
            assert decision.to_dict() == cli
            assert decision.device == cli["device"]
            assert decision.probability == cli["probability"]
            assert decision.networks == cli["networks"]
            assert decision.head == cli.get("head")


def test_the_readme_example_from_python():
    source = (KERNELS / "vector_add.cl").read_text()
    decision = deeptune.Predictor("amd").predict(source, dsize=8388608, wgsize=256)
    cli = cli_json_lines("predict", "kernels/vector_add.cl", "--dsize", 8388608, "--wgsize", 256,
                         "--json")[0]
    assert (decision.device, decision.probability) == (cli["device"], cli["probability"])
    assert "vector_add" in repr(decision) and cli["device"] in repr(decision)


def test_bytes_and_str_sources_agree(amd):
    source = (KERNELS / "saxpy.cl").read_text()
    by_str = amd.predict(source, dsize=1 << 20, wgsize=128)
    by_bytes = amd.predict(source.encode(), dsize=1 << 20, wgsize=128)
    assert by_str.to_dict() == by_bytes.to_dict()


def test_host_defines_reach_the_rewriter(amd):
    source = "__kernel void k(__global float* a) { a[get_global_id(0)] *= scale_by; }\n"
    without = amd.predict(source, dsize=4096, wgsize=64)
    assert without.undeclared == ["scale_by"]
    defined = amd.predict(source, dsize=4096, wgsize=64, defines=["scale_by=2.0f"])
    assert defined.undeclared == []


def test_batch_equals_single_calls():
    predictor = deeptune.Predictor("amd-deeptune")
    rng = numpy.random.default_rng(3)
    files = sorted(KERNELS.glob("*.cl"))[:48]  # enough kernels to spread over 2+ predictors
    sources = [f.read_text() for f in files]
    picks = rng.integers(0, len(sources), 200)
    batch_sources = [sources[i] for i in picks]
    dsizes = 2.0 ** rng.integers(10, 32, 200)
    wgsizes = 2 ** rng.integers(0, 11, 200)
    batch = predictor.predict_batch(batch_sources, dsizes, wgsizes)
    assert batch["probability"].dtype == numpy.float64 and batch["gpu"].dtype == numpy.bool_
    assert len(batch["device"]) == 200
    for i in range(200):
        one = predictor.predict(batch_sources[i], dsize=float(dsizes[i]), wgsize=int(wgsizes[i]))
        assert batch["device"][i] == one.device
        assert batch["gpu"][i] == (one.device == "GPU")
        assert batch["probability"][i] == one.probability
        assert batch["kernel"][i] == one.kernel


def test_batch_names_the_launch_that_fails(amd):
    good = (KERNELS / "saxpy.cl").read_text()
    with pytest.raises(deeptune.ModelError, match=r"work-group size 0.*\(launch 2\)"):
        amd.predict_batch([good, good, good], [1024, 1024, 1024], [64, 64, 0])
    with pytest.raises(deeptune.SourceError, match=r"\(launch 1\)"):
        amd.predict_batch([good, "__kernel void k( {"], [1024, 1024], [64, 64])
    # Spread over several predictors: still the lowest launch that fails.
    many = [f.read_text() for f in sorted(KERNELS.glob("*.cl"))[:48]]
    broken = many[:]
    broken[30], broken[7] = "__kernel void j( {", "__kernel void k( {"
    with pytest.raises(deeptune.SourceError, match=r"\(launch 7\)"):
        amd.predict_batch(broken, [1024] * 48, [64] * 48)
    with pytest.raises(ValueError, match="one length"):
        amd.predict_batch([good], [1024, 2048], [64])


def test_coarsening_gives_the_cli_json():
    files = [f"kernels/{name}" for name in SINGLE_KERNEL_FILES]
    for gpu in ["tahiti", "fermi-deeptune"]:
        predictor = deeptune.CoarseningPredictor(gpu)
        expected = cli_json_lines("predict", "--task", "coarsening", "--platform", gpu, *files,
                                  "--json")
        sources = [(KERNELS.parent / f).read_text() for f in files]
        batch = predictor.predict_batch(sources)
        for i, (file, cli) in enumerate(zip(files, expected)):
            decision = predictor.predict(sources[i], file_name=file)
            assert decision.to_dict() == cli
            assert batch["factor"][i] == cli["factor"]
            assert batch["probability"][i] == cli["probability"]
            assert decision.probabilities == {p["factor"]: p["probability"]
                                              for p in cli["probabilities"]}


def test_help_explains_the_api():
    text = deeptune.Predictor.__doc__ + deeptune.Predictor.predict.__doc__
    for word in ["bundled", "dsize", "wgsize", "GIL", "SourceError"]:
        assert word in text
    assert "predict_batch" in deeptune.Predictor.predict_batch.__doc__
    assert "legality" in deeptune.Advisor.__doc__


def test_model_by_path_and_its_properties(amd):
    by_path = deeptune.Predictor(amd.model)
    assert by_path.model == amd.model and json.dumps(by_path.model_devices) == "[]"
    assert "Predictor" in repr(by_path)


def test_every_kernel_of_a_file_as_the_cli(tmp_path):
    three = tmp_path / "three.cl"
    three.write_text("__kernel void zeta(__global float* a) { a[get_global_id(0)] *= 2.0f; }\n"
                     "__kernel void alpha(__global float* a, __global const float* b) {\n"
                     "  int i = get_global_id(0);\n  a[i] = a[i] * b[i];\n}\n")
    predictor = deeptune.Predictor("nvidia")
    each = predictor.predict_each(three.read_text(), dsize=65536, wgsize=128, file_name=str(three))
    cli = cli_json_lines("predict", three, "--dsize", 65536, "--wgsize", 128, "--platform",
                         "nvidia", "--json")
    assert [d.to_dict() for d in each] == cli and [d.kernel for d in each] == ["zeta", "alpha"]
    factors = deeptune.CoarseningPredictor().predict_each(three.read_text(), file_name=str(three))
    assert [f.to_dict() for f in factors] == cli_json_lines("predict", "--task", "coarsening",
                                                            three, "--json")
