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
  std::string pooling = "last";  ///< ModelInfo::pooling of every fold's model
  int lstmSize = 64;             ///< ModelInfo::lstmSize of every fold's model
  /// Each fold derives its vocabulary from its training rows' sources (what the grouped
  /// protocols need: nothing of a test source seen); else the vocabulary handed in is used.
  bool vocabularyPerFold = false;
  /// Keep each fold's language-model states of its rows in the FoldTraining record (for a head
  /// fitted on them afterwards, e.g. evaluation's tree head).
  bool keepStates = false;
  /// With keepStates: also each row's token counts (for a head that reads them beside the states).
  bool keepTokenCounts = false;
  /// Early stopping: this fraction of a fold's training sources (whole sources, drawn with the
  /// fold's seed) is held out of its training as validation (TrainOptions::validation); 0 = off.
  double earlyStopping = 0;
  /// Language-model pretraining: this many next-token epochs over the distinct sources of the
  /// fold's training rows (DeepTuneModel::pretrainLanguageModel) before the labelled training;
  /// 0 = off.
  int pretrainEpochs = 0;
  /// More unlabelled sources for pretraining (normalized kernels, e.g. the project's own rewritten
  /// by `deeptune rewrite`), encoded with each fold's vocabulary (unknown tokens skipped).
  std::vector<std::string> pretrainSources;
  /// Fine-tuning: every fold's model starts from this model file (whose vocabulary, sizes and
  /// aux scale the options must then carry) instead of a fresh initialization: the whole network
  /// when startWhole (its labels mean the data's devices), else its language model alone.
  std::string startFrom;
  bool startWhole = false;
};

/// Moves `fraction` of the distinct sources (token sequences) of `train` into the returned
/// validation set: at least one source, and at least one left; Fisher-Yates over the sources in
/// sorted order with mt19937_64(seed), so the split is the same on every platform. Returns an
/// empty set (and leaves `train` alone) when fraction is 0 or there are fewer than 2 sources.
std::vector<Example> holdOutSources(std::vector<Example>& train, double fraction, uint64_t seed);

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
