// Training curves and what they say: per-epoch progress, a run's summary, the collapse rule, and
// the record of one cross-validation fold (plain values; no LibTorch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace deeptune::model {

/// Reported after each epoch.
struct EpochProgress {
  int epoch = 0;  ///< 1-based
  int epochs = 0;
  double loss = 0;
  double accuracy = 0;             ///< training accuracy of the main output
  double seconds = 0;              ///< wall time of the epoch
  double validationAccuracy = -1;  ///< on TrainOptions::validation; -1 without one
};

/// A run collapsed when its final training accuracy ends more than this below its best epoch's.
constexpr double kCollapseMargin = 0.10;

/// The end of a training curve and its best point.
struct TrainingSummary {
  int epochs = 0;
  double finalLoss = 0;
  double finalAccuracy = 0;
  double bestAccuracy = 0;
  int bestEpoch = 0;  ///< 1-based; the first epoch reaching bestAccuracy
  /// With a validation set: the epoch whose weights the model kept (the first with the best
  /// validation accuracy) and that accuracy; 0 and -1 without one.
  int keptEpoch = 0;
  double keptValidationAccuracy = -1;

  /// Adds the next epoch's figures.
  void add(const EpochProgress& epoch) {
    epochs = epoch.epoch;
    finalLoss = epoch.loss;
    finalAccuracy = epoch.accuracy;
    if (bestEpoch == 0 || epoch.accuracy > bestAccuracy) {
      bestAccuracy = epoch.accuracy;
      bestEpoch = epoch.epoch;
    }
  }
  /// Final training accuracy more than kCollapseMargin below the best epoch's.
  bool collapsed() const { return bestAccuracy - finalAccuracy > kCollapseMargin; }
};

/// What one fold of a cross-validated device-mapping model did: its training curve's summary
/// and its test predictions.
struct FoldTraining {
  std::string method;  ///< the run's name in the report, e.g. "deeptune" or "deeptune-s1204"
  uint64_t seed = 0;   ///< the seed the fold's model was trained with
  int fold = 0;        ///< 0-based
  TrainingSummary training;
  size_t testRows = 0;
  size_t testCorrect = 0;     ///< test rows predicted as their oracle
  size_t predictedGpu = 0;    ///< test rows predicted GPU
  size_t vocabularySize = 0;  ///< tokens of the vocabulary the fold's model read
  /// With pretraining: the next-token loss after each pretraining epoch.
  std::vector<double> pretrainCurve;
  std::vector<size_t> testRowIndices;     ///< the fold's test rows (indices into the data)
  std::vector<float> testGpuProbability;  ///< the model's GPU probability of each of them
  /// With DeepTuneMethodOptions::keepStates: the language model's last state of every training
  /// and test row (in trainRowIndices and testRowIndices order), for heads fitted afterwards.
  std::vector<size_t> trainRowIndices;
  std::vector<std::vector<float>> trainStates, testStates;
  /// With keepTokenCounts too: each of those rows' token counts (model::tokenCounts of the tokens
  /// the fold's model read, its vocabulary).
  std::vector<std::vector<float>> trainTokenCounts, testTokenCounts;

  double testAccuracy() const {
    return testRows == 0 ? 0.0 : static_cast<double>(testCorrect) / static_cast<double>(testRows);
  }
  /// Every test row got the same device (a sign of a dead output layer when the fold has both).
  bool predictsOneDevice() const { return predictedGpu == 0 || predictedGpu == testRows; }
};

}  // namespace deeptune::model
