// DeepTune as a device-mapping method for cross-validation: train on a fold, predict the rest.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "model/cross_validation.hpp"
#include "model/deeptune_model.hpp"
#include "model/devmap_metrics.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::model {

/// Settings of the DeepTune method in an evaluation.
struct DeepTuneMethodOptions {
  TrainOptions train;
  int maxLength = 1024;
  bool paperPadding = false;
  std::string auxScale = "raw";  ///< ModelInfo::auxScale of every fold's model
  /// Each fold derives its vocabulary from its training rows' sources (what the grouped
  /// protocols need: nothing of a test source seen); else the vocabulary handed in is used.
  bool vocabularyPerFold = false;
};

/// Called after every epoch of every fold (from the fold's worker thread).
using FoldProgressCallback = std::function<void(int fold, const EpochProgress&)>;
/// Called when a fold's model has trained and predicted its test rows (from the fold's worker
/// thread); `method` of the record is left empty for the caller to name the run.
using FoldDoneCallback = std::function<void(const FoldTraining&)>;

/// A DevmapPredictor that trains a fresh DeepTune model on the training rows of each fold (seed
/// = options.train.seed + fold) and predicts the test rows. Safe to run folds on several threads
/// when the process's BLAS is (loadedBlas().concurrentCallsSafe). The vocabulary is `vocabulary`
/// (the paper's: the whole data set's), or with options.vocabularyPerFold each fold's own.
DevmapPredictor deeptunePredictor(const std::vector<data::DevmapRow>& rows,
                                  const tokenizer::Vocabulary& vocabulary,
                                  const DeepTuneMethodOptions& options,
                                  FoldProgressCallback progress = {}, FoldDoneCallback done = {});

/// DeepTune cross-validated once per seed (see crossValidateDeepTune).
struct DeepTuneRuns {
  /// One run per seed: named "deeptune" when there is one, else "deeptune-s<seed>"; group
  /// "deeptune".
  std::vector<MethodPredictions> runs;
  std::vector<uint64_t> seeds;      ///< base seed of each run
  std::vector<FoldTraining> folds;  ///< every fold of every run, by run then fold
  /// With two runs or more: each row's GPU probability averaged over the runs, then thresholded
  /// at 0.5 (ties: CPU); named and grouped "deeptune-ensemble". Empty devices otherwise.
  MethodPredictions ensemble;
  int workers = 1;                  ///< folds trained at once (see safeTrainingWorkers)
};

/// Cross-validates DeepTune `seeds` times on the folds `foldOfRow`: run r trains fold f with seed
/// options.train.seed + 1000 r + f (run 0 is the single-seed evaluation). Folds run on `workers`
/// threads, each with one compute thread (setComputeThreads(1) for the process), so results do
/// not depend on `workers`; with a BLAS that is not safe for concurrent calls it uses one worker
/// (safeTrainingWorkers). Callbacks
/// come from the workers' threads. Throws ModelError on bad arguments or a failed fold.
using RunProgressCallback = std::function<void(int run, int fold, const EpochProgress&)>;
DeepTuneRuns crossValidateDeepTune(const std::vector<data::DevmapRow>& rows,
                                   const std::vector<int>& foldOfRow,
                                   const tokenizer::Vocabulary& vocabulary,
                                   const DeepTuneMethodOptions& options, int seeds, int workers,
                                   RunProgressCallback progress = {}, FoldDoneCallback done = {});

}  // namespace deeptune::model
