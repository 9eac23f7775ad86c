// DeepTune as a device-mapping method for cross-validation: train on a fold, predict the rest.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "model/cross_validation.hpp"
#include "model/deeptune_model.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::model {

/// Settings of the DeepTune method in an evaluation.
struct DeepTuneMethodOptions {
  TrainOptions train;
  int maxLength = 1024;
  bool paperPadding = false;
};

/// Called after every epoch of every fold (from the fold's worker thread).
using FoldProgressCallback = std::function<void(int fold, const EpochProgress&)>;

/// A DevmapPredictor that trains a fresh DeepTune model on the training rows of each fold (seed
/// = options.train.seed + fold) and predicts the test rows. Thread-safe across folds. The
/// vocabulary is the one of the whole data set (as in the paper).
DevmapPredictor deeptunePredictor(const std::vector<data::DevmapRow>& rows,
                                  const tokenizer::Vocabulary& vocabulary,
                                  const DeepTuneMethodOptions& options,
                                  FoldProgressCallback progress = {});

}  // namespace deeptune::model
