// DeepTune as a device-mapping method for cross-validation: train on a fold, predict the rest.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "data/devmap_method.hpp"
#include "model/deeptune_model.hpp"
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
  /// Keep each fold's language-model states of its rows in the FoldTraining record (for a head
  /// fitted on them afterwards, e.g. evaluation's tree head).
  bool keepStates = false;
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
data::DevmapPredictor deeptunePredictor(const std::vector<data::DevmapRow>& rows,
                                        const tokenizer::Vocabulary& vocabulary,
                                        const DeepTuneMethodOptions& options,
                                        FoldProgressCallback progress = {},
                                        FoldDoneCallback done = {});

}  // namespace deeptune::model
