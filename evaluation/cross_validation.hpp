// Cross-validation of device-mapping predictors: the runner and training subsets (the folds come
// from a protocol, evaluation/protocol.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "data/devmap_method.hpp"

namespace deeptune::evaluation {

using data::DevmapPredictor;

/// Runs `predictor` once per distinct fold of `foldOfRow` (test = the rows of that fold, train =
/// all others) and returns one prediction per row, with its GPU probability when the predictor
/// gives them. With workers > 1, folds run concurrently on
/// data::parallelFor (up to `workers` threads, the caller one of them, at most one per fold); the
/// result does not depend on `workers`.
/// Throws EvaluationError if foldOfRow.size() != rowCount, a fold is negative, there are fewer than
/// two folds, workers < 1, or the predictor returns a wrong count, a label other than CPU/GPU, a
/// probability outside [0, 1] or probabilities for some folds only. An
/// exception thrown by the predictor is rethrown (after all threads have joined); when several
/// folds fail, the one with the smallest fold number wins.
data::DevmapPredictions crossValidate(size_t rowCount, const std::vector<int>& foldOfRow,
                                      const DevmapPredictor& predictor, int workers = 1);

/// Learning curves: each fold trains on the rows of `kernels` distinct sources drawn from its
/// training sources (0 = all of them).
struct TrainingSubset {
  int kernels = 0;
  uint64_t seed = 204;  ///< the draw of fold f uses seed + f
};

/// `predictor` with each fold's training rows cut to subset.kernels distinct sources (`src` of
/// `rows`): the sorted sources shuffled by mt19937_64(seed + fold) (the same on every platform),
/// the first ones kept. Unchanged when subset.kernels is 0 or not below the fold's sources.
/// `rows` must outlive the returned predictor (it reads them by reference).
DevmapPredictor withTrainingSubset(const DevmapPredictor& predictor,
                                   const std::vector<data::DevmapRow>& rows,
                                   const TrainingSubset& subset);

}  // namespace deeptune::evaluation
