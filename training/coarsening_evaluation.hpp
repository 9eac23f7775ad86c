// Thread coarsening, leave-one-kernel-out per device: static, fixed, Magni et al. and DeepTune.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "data/coarsening_kernels.hpp"
#include "evaluation/coarsening_prediction.hpp"
#include "model/deeptune_model.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::training {

/// What one network training of the evaluation saw (CoarseningEvaluationOptions::trainingSeen).
struct CoarseningTrainingSeen {
  bool transfer = false;                ///< deeptune-tl's (else deeptune's)
  std::vector<std::string> kernels;     ///< the training kernels, by name
  std::vector<std::string> predicted;   ///< the kernels it predicts, by name
  std::vector<std::string> vocabulary;  ///< the vocabulary its tokens came from
};

struct CoarseningEvaluationOptions {
  std::vector<std::string> methods = {"static", "fixed", "magni", "deeptune", "deeptune-tl"};
  int runs = 5;               ///< seeds of the learned methods: seed + 1000 r, kernel k adds k
  model::TrainOptions train;  ///< epochs, batch size, first seed
  int maxLength = 1024;
  int workers = 1;  ///< trainings at once (the caller checks that the BLAS allows it)
  /// deeptune-tl: the model whose language model each training starts from; its vocabulary is
  /// used by both learned methods (they read the same tokens).
  const model::DeepTuneModel* transferSource = nullptr;
  /// How deeptune-tl's encoder starts: "model" copies transferSource's language model (the
  /// paper's); "pretrained" pretrains one per run as a next-token model on pretrainSequences
  /// (tokens of transferSource's vocabulary; no coarsening label) and copies it.
  std::string transferMode = "model";
  std::vector<std::vector<int>> pretrainSequences;
  model::PretrainOptions pretrain;
  /// One network over every device (device given as a one-hot input), trained on every other
  /// kernel's rows of every device; else one network per device (the paper's).
  bool sharedDevices = false;
  /// Networks per run and held-out kernel, their probabilities averaged (seed + 100003 e).
  int ensemble = 1;
  /// > 0: fall back to the fixed factor when the ensemble's averaged probability of its choice
  /// is below a threshold chosen by an inner cross-validation of this many folds over the
  /// training kernels (the held-out kernel takes no part).
  int fallbackFolds = 0;
  /// deeptune (from scratch): its vocabulary derived from each training's own kernels (the
  /// held-out kernel's tokens are not in it), as grouped device mapping does; else the one
  /// handed to evaluateCoarsening. deeptune-tl reads its source model's vocabulary either way.
  bool vocabularyPerFold = true;
  /// Called once per ensemble trained (from worker threads, one call at a time): what it saw.
  std::function<void(const CoarseningTrainingSeen&)> trainingSeen;
  /// Predictions of an interrupted evaluation with the same data and settings: a trained
  /// method's (device, method, run, kernel) found here is taken from it, not trained again.
  const std::vector<evaluation::CoarseningPrediction>* resumed = nullptr;
};

/// Called when one trained method (magni, deeptune, deeptune-tl) has predicted its held-out kernel
/// (from a worker thread, one call at a time); `total` counts the trainings left to do.
using CoarseningProgress =
    std::function<void(const evaluation::CoarseningPrediction&, size_t done, size_t total)>;

/// Leave-one-kernel-out on each device's kernels (`kernelsByDevice[d]` belongs to `devices[d]`):
/// each kernel is predicted by methods trained on the others only, one training row per kernel.
/// Predictions come back in a fixed order (device, method, run, kernel) whatever `workers` is.
std::vector<evaluation::CoarseningPrediction> evaluateCoarsening(
    const std::vector<std::string>& devices,
    const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice,
    const tokenizer::Vocabulary& vocabulary, const CoarseningEvaluationOptions& options,
    const CoarseningProgress& progress = {});

}  // namespace deeptune::training
