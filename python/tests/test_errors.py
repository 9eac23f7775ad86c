"""Bad input raises a deeptune.Error subclass with the CLI's one-line message, never a crash."""

from pathlib import Path

import pytest

import deeptune
from conftest import KERNELS, cli_error

SAXPY = (KERNELS / "saxpy.cl").read_text()


def test_the_hierarchy():
    for name, builtin in [("SourceError", ValueError), ("ModelError", ValueError),
                          ("DataError", ValueError), ("LaunchError", ValueError),
                          ("DeviceError", RuntimeError), ("SetupError", RuntimeError)]:
        error = getattr(deeptune, name)
        assert issubclass(error, deeptune.Error) and issubclass(error, builtin)
        assert error.__module__ == "deeptune" and error.__doc__


def test_source_errors_carry_the_cli_message(tmp_path, amd):
    two = tmp_path / "two.cl"
    two.write_text("__kernel void a() {}\n__kernel void b() {}\n")
    expected = cli_error("predict", two, "--dsize", 1000, "--wgsize", 64, "--kernel", "c")
    with pytest.raises(deeptune.SourceError) as raised:
        amd.predict(two.read_text(), dsize=1000, wgsize=64, kernel="c", file_name=str(two))
    assert str(raised.value) == expected
    assert "no kernel named 'c'" in expected
    with pytest.raises(deeptune.SourceError, match="name the one to use: a, b"):
        amd.predict(two.read_text(), dsize=1000, wgsize=64)  # one launch names its kernel

    broken = tmp_path / "broken.cl"
    broken.write_text("__kernel void k(__global int* a) { a[0] = ; }\n")
    expected = cli_error("predict", broken, "--dsize", 1000, "--wgsize", 64)
    with pytest.raises(deeptune.SourceError) as raised:
        amd.predict(broken.read_text(), dsize=1000, wgsize=64, file_name=str(broken))
    assert str(raised.value) == expected and str(broken) + ":1:" in expected


@pytest.mark.parametrize("source", [b"__kernel void k() {}\xff\xfe\n", b"__kernel\x00 void k() {}",
                                    "__kernel void k() { \udc80 }", "", "   \n",
                                    "x" * (5 << 20), "(" * 100000,
                                    "#define A A A A A A A A\n" * 50 + "__kernel void k() {}"])
def test_hostile_sources_raise(source, amd):
    with pytest.raises(deeptune.SourceError) as raised:
        amd.predict(source, dsize=1000, wgsize=64)
    assert "\n" not in str(raised.value)
    with pytest.raises(deeptune.SourceError):
        deeptune.rewrite(source)


def test_wrong_types_raise_type_error(amd):
    for source in [None, 42, ["__kernel void k() {}"]]:
        with pytest.raises(TypeError):
            amd.predict(source, dsize=1000, wgsize=64)
    with pytest.raises(TypeError):
        amd.predict(SAXPY, dsize="big", wgsize=64)


@pytest.mark.parametrize("dsize,wgsize", [(-1, 64), (float("nan"), 64), (1e300, 64),
                                          (1000, 0), (1000, 1.5), (1000, float("inf"))])
def test_sizes_out_of_range(dsize, wgsize, amd):
    with pytest.raises(deeptune.ModelError, match="data size|work-group size"):
        amd.predict(SAXPY, dsize=dsize, wgsize=wgsize)


def test_models_that_are_not_one(tmp_path):
    text = tmp_path / "notes.model"
    text.write_text("hello\n")
    with pytest.raises(deeptune.ModelError, match="not a deeptune model file"):
        deeptune.Predictor(str(text))
    with pytest.raises(deeptune.ModelError, match="not a file, nor a bundled model"):
        deeptune.Predictor("intel")
    with pytest.raises(deeptune.ModelError, match="no such model file"):
        deeptune.Predictor(tmp_path / "missing.model")
    with pytest.raises(deeptune.ModelError, match="not a file, nor a bundled model"):
        deeptune.CoarseningPredictor("amd")
    with pytest.raises(deeptune.ModelError, match="'devmap' model, expected a coarsening"):
        deeptune.CoarseningPredictor(deeptune.Predictor("amd").model)
    language_model = Path(deeptune.Predictor("amd").model).parent / "opencl-lm.model"
    with pytest.raises(deeptune.ModelError, match="pretrained language model, which chooses nothing"):
        deeptune.Predictor(language_model)
    garbage = tmp_path / "garbage.model"
    garbage.write_bytes(b"DEEPTUNE-MODEL 7\n" + bytes(range(256)) * 64)
    with pytest.raises(deeptune.ModelError):
        deeptune.Predictor(garbage)


def test_bad_options_and_files(tmp_path, amd):
    with pytest.raises(deeptune.DataError, match="1X"):
        amd.predict(SAXPY, dsize=1000, wgsize=64, defines=["1X"])
    with pytest.raises(deeptune.DataError, match="not a folder|no such"):
        deeptune.rewrite(SAXPY, include_dirs=[str(tmp_path / "missing")])
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(deeptune.DataError, match="bad.csv"):
        deeptune.read_devmap(str(bad))
    with pytest.raises(deeptune.DataError):
        deeptune.read_folds(str(tmp_path / "missing.csv"))
    with pytest.raises(deeptune.SourceError):
        deeptune.Vocabulary([])


def test_advisor_refuses_malformed_launches():
    advisor = deeptune.Advisor()
    for candidates, global_size, local_size, transfer, words in [
            ([], 1024, None, 0, "no candidate"),
            ([12345678], 1024, None, 0, "not a device"),
            ([-1], 1024, None, 0, "below"),
            ([1 << 70], 1024, None, 0, "too large"),
            (["cpu"], 1024, None, 0, "whole number"),
    ]:
        with pytest.raises(deeptune.LaunchError, match=words):
            advisor.advise(SAXPY, candidates, global_size, local_size, transfer_bytes=transfer)
