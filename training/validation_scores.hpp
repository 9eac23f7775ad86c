// Choosing on validation carved from the training folds: every outer fold's training sources
// split into inner folds, each predicted by a method trained on the others; no test row is read.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "data/datasets.hpp"
#include "data/devmap_method.hpp"
#include "evaluation/protocol.hpp"

namespace deeptune::training {

/// Inner folds per outer fold.
constexpr int kInnerFolds = 5;

/// The inner folds of `train` (indices into `rows`): its sources in order of first appearance,
/// shuffled with mt19937_64(`seed`), source j in inner fold j % kInnerFolds; each inner fold's
/// rows, ascending (an inner fold is empty when there are fewer sources than folds).
std::vector<std::vector<size_t>> innerFolds(const std::vector<data::DevmapRow>& rows,
                                            const std::vector<size_t>& train, uint64_t seed);

/// The rows of every inner fold of `inner` but `k`, ascending: what inner fold k is predicted by.
std::vector<size_t> otherInnerFolds(const std::vector<std::vector<size_t>>& inner, size_t k);

/// One method's score on validation.
struct ValidationScore {
  std::string method;
  double accuracy = 0;     ///< over every inner prediction of every outer fold, in [0, 1]
  double suiteMean = 0;    ///< the mean of the per-suite accuracies, in [0, 1]
  size_t predictions = 0;  ///< rows predicted (each training row once per outer fold)
  /// The expected calibration error of every inner prediction's probability
  /// (evaluation/calibration_metrics.hpp); -1 for a method without probabilities.
  double calibrationError = -1;
};

/// Each method's validation score under `protocol`: for every outer fold, its training rows'
/// sources shuffled with `seed` + fold and dealt into kInnerFolds inner folds; each inner fold
/// predicted by the method trained on the other inner folds' rows. The outer test rows are never
/// trained on nor scored. Outer folds run on `workers` threads. Throws what a method throws.
std::vector<ValidationScore> validationScores(
    const std::vector<data::DevmapRow>& rows, const evaluation::Protocol& protocol,
    const std::vector<std::pair<std::string, data::DevmapPredictor>>& methods, uint64_t seed,
    int workers);

/// The scores as the CLI prints them: one line per method.
std::string validationTable(const std::string& platform, const std::string& protocol,
                            const std::vector<ValidationScore>& scores);

}  // namespace deeptune::training
