// DeepTune cross-validated with several seeds: the runs, their fold records and their ensemble.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "data/datasets.hpp"
#include "evaluation/cross_validation.hpp"
#include "evaluation/devmap_metrics.hpp"
#include "model/devmap_deeptune.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::training {

/// DeepTune cross-validated once per seed (see crossValidateDeepTune).
struct DeepTuneRuns {
  /// One run per seed: named "deeptune" when there is one, else "deeptune-s<seed>"; group
  /// "deeptune".
  std::vector<evaluation::MethodPredictions> runs;
  std::vector<uint64_t> seeds;             ///< base seed of each run
  std::vector<model::FoldTraining> folds;  ///< every fold of every run, by run then fold
  /// With two runs or more: each row's GPU probability averaged over the runs, then thresholded
  /// at 0.5 (ties: CPU); named and grouped "deeptune-ensemble". Empty devices otherwise.
  evaluation::MethodPredictions ensemble;
  /// With StateHeads::tree, one per run: the tree head (a depth-5 tree on the run's
  /// language-model states and log2 transfer and wgsize, fitted per fold on the training rows),
  /// named "deeptune-tree" (or "deeptune-tree-s<seed>"), grouped "deeptune-tree".
  std::vector<evaluation::MethodPredictions> treeHeads;
  /// With StateHeads::boosted, one per run: XGBoost's boosted trees (model::BoostedTreeOptions'
  /// defaults) on the same features, named "deeptune-boosted" (or "deeptune-boosted-s<seed>"),
  /// grouped "deeptune-boosted"; with two runs or more also their probabilities averaged,
  /// "deeptune-boosted-ensemble".
  std::vector<evaluation::MethodPredictions> boostedHeads;
  evaluation::MethodPredictions boostedEnsemble;
  /// With StateHeads::boostedTokenCounts, the same boosted trees with each row's token counts
  /// (model::tokenCounts) between the state and the launch inputs: "deeptune-boosted-tc" (or
  /// "-tc-s<seed>"), grouped "deeptune-boosted-tc", and "deeptune-boosted-tc-ensemble".
  std::vector<evaluation::MethodPredictions> boostedCountHeads;
  evaluation::MethodPredictions boostedCountEnsemble;
  int workers = 1;  ///< folds trained at once (see safeTrainingWorkers)
};

/// Heads fitted, after each run, on its fold models' language-model states and log2 launch
/// inputs (no extra network training; they need options.keepStates).
struct StateHeads {
  bool tree = false;                ///< DeepTuneRuns::treeHeads
  bool boosted = false;             ///< DeepTuneRuns::boostedHeads
  bool boostedTokenCounts = false;  ///< DeepTuneRuns::boostedCountHeads
  /// The share of the features each tree of the token-count head may split on (1: all, as
  /// before; below 1 the state's 64 values do not crowd out the counts in every tree).
  double countsColumnSample = 1.0;
};

/// Cross-validates DeepTune `seeds` times on the folds `foldOfRow`: run r trains fold f with seed
/// options.train.seed + 1000 r + f (run 0 is the single-seed evaluation). Folds run on `workers`
/// threads, each with one compute thread (setComputeThreads(1) for the process), so results do
/// not depend on `workers`; with a BLAS that is not safe for concurrent calls it uses one worker
/// (safeTrainingWorkers). Callbacks
/// come from the workers' threads. `subset` cuts each fold's training rows (learning curves).
/// Throws TrainingError on bad arguments or a failed fold.
using RunProgressCallback = std::function<void(int run, int fold, const model::EpochProgress&)>;
DeepTuneRuns crossValidateDeepTune(
    const std::vector<data::DevmapRow>& rows, const std::vector<int>& foldOfRow,
    const tokenizer::Vocabulary& vocabulary, const model::DeepTuneMethodOptions& options, int seeds,
    int workers, const StateHeads& heads = {}, RunProgressCallback progress = {},
    model::FoldDoneCallback done = {}, const evaluation::TrainingSubset& subset = {});

}  // namespace deeptune::training
