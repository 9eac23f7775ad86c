"""The package from a `cmake --install` prefix, outside the build tree, gives the CLI's answer."""

import json
import os
import subprocess
import sys

import pytest

from conftest import BUILD, KERNELS, cli_json_lines

INSTALL_DIR = os.environ.get("DEEPTUNE_PYTHON_INSTALL_DIR")


@pytest.mark.skipif(INSTALL_DIR is None, reason="run by ctest, which names the install folder")
def test_installed_package_answers_as_the_cli(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", str(BUILD), "--prefix", str(prefix)], check=True,
                   capture_output=True, timeout=600)
    package = prefix / INSTALL_DIR if not os.path.isabs(INSTALL_DIR) else INSTALL_DIR
    assert (package / "deeptune" / "__init__.py").is_file()
    env = {k: v for k, v in os.environ.items()
           if k not in ("DEEPTUNE_MODELS", "PYTHONPATH", "DEEPTUNE_EXECUTABLE")}
    env["PYTHONPATH"] = str(package)
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    kernel = KERNELS / "vector_add.cl"
    program = ("import deeptune, json; d = deeptune.Predictor('amd').predict(open(%r).read(), "
               "dsize=8388608, wgsize=256); print(d); print(json.dumps(d.to_dict()))"
               % str(kernel))
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    printed, as_json = done.stdout.splitlines()
    decision = json.loads(as_json)
    assert decision["model"].startswith(str(prefix)), "the installed models are used"
    cli = cli_json_lines("predict", kernel, "--dsize", 8388608, "--wgsize", 256, "--json")[0]
    assert (decision["device"], decision["probability"]) == (cli["device"], cli["probability"])
    assert printed.startswith("Decision(kernel='vector_add', device='%s'" % cli["device"])
    # No module or library of the build tree was loaded.
    check = ("import deeptune, sys; import deeptune._deeptune as m; print(m.__file__); "
             "print(open('/proc/self/maps').read())")
    maps = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=300).stdout
    assert str(BUILD) not in maps
