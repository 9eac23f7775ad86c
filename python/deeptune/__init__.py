"""DeepTune in Python: OpenCL kernels mapped to the CPU or the GPU, or to a coarsening factor.

A thin binding over the project's C++ library (the same rewriter, tokenizer, models and advisor
as the `deeptune` command):

    import deeptune
    decision = deeptune.Predictor("amd").predict(source, dsize=8388608, wgsize=256)
    decision.device, decision.probability        # 'GPU', 0.81

- Predictor / CoarseningPredictor: bundled models by name or a model file; predict() for one
  launch, predict_batch() for many (numpy arrays).
- Advisor: legality, model, fallback and cache for an application's launches;
  deeptune.pyopencl asks it with what a PyOpenCL program has.
- rewrite(), kernels(), coarsen(), Vocabulary: the normalizer, thread coarsening, the tokenizer.
- read_devmap(), read_folds(), read_coarsening_runtimes(), columns(): the paper's CSVs.
- Error and its subclasses (SourceError, ModelError, DataError, LaunchError: ValueError;
  DeviceError, SetupError: RuntimeError), with the CLI's one-line messages.
"""

import os as _os

from . import _deeptune
from ._deeptune import (  # noqa: F401
    Advisor,
    CoarseningPredictor,
    Coarsened,
    DataError,
    Decision,
    DeviceError,
    Error,
    FactorDecision,
    LaunchError,
    ModelError,
    Predictor,
    SetupError,
    SourceError,
    Vocabulary,
    coarsen,
    kernels,
    read_coarsening_runtimes,
    read_devmap,
    read_folds,
    rewrite,
)

# A Predictor another thread is inside when os.fork() is called finishes its call first, so the
# child gets it whole (python/bindings/fork_guard.hpp).
_os.register_at_fork(before=_deeptune._before_fork,
                     after_in_parent=_deeptune._after_fork_in_parent,
                     after_in_child=_deeptune._after_fork_in_child)

__all__ = [
    "Advisor", "CoarseningPredictor", "Coarsened", "DataError", "Decision", "DeviceError", "Error",
    "FactorDecision", "LaunchError", "ModelError", "Predictor", "SetupError", "SourceError",
    "Vocabulary", "coarsen", "columns", "kernels", "read_coarsening_runtimes", "read_devmap", "read_folds",
    "rewrite", "tokenize",
]


def tokenize(text, vocabulary, *, strict=False):
    """The token ids of `text` (normalized OpenCL, str or bytes) and the count of characters
    skipped as outside `vocabulary` (a Vocabulary, a JSON file's path, or a list of tokens).
    strict=True raises SourceError for such a character instead. Returns (ids, skipped)."""
    if not isinstance(vocabulary, Vocabulary):
        if isinstance(vocabulary, (list, tuple)):
            vocabulary = Vocabulary(list(vocabulary))
        else:
            vocabulary = Vocabulary.load(str(vocabulary))
    return vocabulary.encode(text, strict=strict)


def columns(rows):
    """Rows from read_devmap() / read_folds() as a table: {column: numpy array}, in the rows'
    column order (numbers as numeric arrays, text as str arrays)."""
    import numpy

    if not rows:
        return {}
    return {name: numpy.array([row[name] for row in rows]) for name in rows[0]}
