// Pretraining DeepTune's language model once on an unlabelled corpus, saved as a model file.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "model/deeptune_model.hpp"

namespace deeptune::data {
class ProgressPrinter;
}

namespace deeptune::training {

/// What `deeptune pretrain` is asked to do.
struct PretrainRequest {
  /// Normalized kernels (`scripts/normalize-corpus.py`'s output), one per source.
  std::vector<std::string> sources;
  /// Sources never to train on, compared without layout (the labelled programs).
  std::vector<std::string> excluded;
  /// The vocabulary's tokens in id order; empty: derived from the corpus's training sources.
  std::vector<std::string> vocabulary;
  std::string vocabularyName = "corpus";
  /// Share of the sources held out (chosen by a hash of the text, the same for every seed) for
  /// the held-out next-token loss after every epoch; 0 holds out none.
  double heldOutShare = 0.05;
  int maxLength = 1024;  ///< each source keeps its last maxLength tokens
  int lstmSize = 64;     ///< ModelInfo::lstmSize
  model::PretrainOptions options;
  std::string outputPath;  ///< the model file (ModelInfo::method "language-model")
  std::string command;     ///< recorded in the file for provenance
  std::string dataName;    ///< what the sources are, for the file's fingerprint line
};

/// What came of it.
struct PretrainResult {
  size_t trainingSources = 0, heldOutSources = 0, excludedSources = 0, vocabulary = 0;
  size_t trainingTokens = 0;
  std::vector<double> trainLoss, heldOutLoss;  ///< per epoch, nats per predicted token
  double seconds = 0;
};

/// Fills request.sources with every .cl file of `folders` (data::readSourceFolder), .excluded
/// with the `src` of every row of the labelled CSVs `excludedCsvs`, and .vocabulary with the
/// tokens of `vocabularyPath` ("": derived later from the corpus). Throws data::DataError or
/// tokenizer's VocabError naming the file.
void readPretrainInputs(PretrainRequest& request, const std::vector<std::string>& folders,
                        const std::vector<std::string>& excludedCsvs,
                        const std::string& vocabularyPath);

/// The progress line of an epoch: "epoch 3/30  loss 1.2345  held-out 1.3456  12s  ETA 5m".
std::string pretrainEpochLine(int epoch, int epochs, double trainLoss, double heldOutLoss,
                              double seconds);

/// What `deeptune pretrain` prints at the end (one line).
std::string pretrainSummaryLine(const PretrainResult& result, const std::string& output,
                                double seconds);

/// Throws TrainingError for a request it cannot run (no source, a share outside 0..0.5, bad
/// sizes); the model's own errors pass as ModelError.
void checkPretrainRequest(const PretrainRequest& request);

/// Sees each pretraining epoch as it ends.
using PretrainEpochCallback =
    std::function<void(int epoch, double trainLoss, double heldOutLoss, double seconds)>;

/// Pretraining's epochs as lines on `printer`: losses, time and ETA, the last one ending its line.
PretrainEpochCallback printedPretrainProgress(data::ProgressPrinter& printer, int epochs);

/// Pretrains (DeepTuneModel::pretrainLanguageModel) a fresh devmap-shaped network on the sources
/// and writes it to request.outputPath; `epochDone` sees each epoch as it ends.
PretrainResult pretrainLanguageModel(const PretrainRequest& request,
                                     const PretrainEpochCallback& epochDone = {});

/// The per-epoch curve as CSV: epoch, train_loss, held_out_loss.
std::string pretrainCurveCsv(const PretrainResult& result);

}  // namespace deeptune::training
