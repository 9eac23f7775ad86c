"""rewrite, kernels, coarsen, tokenize and the CSV readers agree with the CLI."""

import json

import pytest

import deeptune
from conftest import DATA, KERNELS, cli_json_lines, run_cli


@pytest.mark.parametrize("name", ["vector_add.cl", "sobel.cl", "matmul_tiled.cl"])
def test_rewrite_gives_the_cli_text(name):
    source = (KERNELS / name).read_text()
    assert deeptune.rewrite(source, file_name=f"kernels/{name}") + "\n" == \
        run_cli("rewrite", f"kernels/{name}")


def test_kernels_and_extraction():
    source = "__kernel void first(__global int* a) { a[0] = 1; }\n" \
             "__kernel void second(__global int* a) { a[1] = 2; }\n"
    assert deeptune.kernels(source) == ["first", "second"]
    second = deeptune.rewrite(source, kernel="second")
    assert "a[1] = 2" in second and "a[0] = 1" not in second


def test_tokenize_gives_the_cli_ids():
    vocab = DATA / "vocab-128.json"
    cli = cli_json_lines("tokenize", "--rewrite", "--json", "--vocab", vocab, "kernels/saxpy.cl")[0]
    text = deeptune.rewrite((KERNELS / "saxpy.cl").read_text(), kernel="")
    ids, skipped = deeptune.tokenize(text, vocab)
    assert (ids, skipped) == (cli["ids"], cli["skipped"])
    vocabulary = deeptune.Vocabulary.load(str(vocab))
    assert vocabulary.decode(ids) == text and len(vocabulary) == 128
    assert deeptune.tokenize(text, json.loads(vocab.read_text()))[0] == ids
    with pytest.raises(deeptune.SourceError, match="not in the vocabulary|unknown"):
        deeptune.tokenize(text + "\u00e9", vocabulary, strict=True)


def test_coarsen_gives_the_cli_text():
    factor_text = run_cli("coarsen", "kernels/saxpy.cl", "--factor", 4)
    coarsened = deeptune.coarsen((KERNELS / "saxpy.cl").read_text(), 4,
                                 file_name="kernels/saxpy.cl")
    assert coarsened.factor == 4 and coarsened.kernel == "saxpy"
    assert coarsened.source.strip() in factor_text
    with pytest.raises(deeptune.SourceError):
        deeptune.coarsen((KERNELS / "saxpy.cl").read_text(), 1)


def test_paper_data_as_rows_and_columns():
    rows = deeptune.read_devmap(str(DATA / "cgo17-amd.csv"))
    assert len(rows) == 680 and rows[0]["oracle"] in ("CPU", "GPU")
    table = deeptune.columns(rows)
    assert table["transfer"].shape == (680,) and table["transfer"].dtype.kind == "f"
    assert set(table["oracle"]) == {"CPU", "GPU"}
    folds = deeptune.read_folds(str(DATA / "folds-amd.csv"))
    assert len(folds) == 680 and max(r["fold"] for r in folds) == 9
    runtimes = deeptune.read_coarsening_runtimes(str(DATA / "pact-2014-runtimes.csv"))
    assert len(runtimes) == 89 and len(runtimes[0]["pca"]) == 7
    assert set(runtimes[0]["runtime_ns"]) == {"Fermi", "Kepler", "Cypress", "Tahiti"}
