// Cross-validation of device-mapping predictors: fold assignment (paper folds, grouped folds) and
// runs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "data/devmap_method.hpp"

namespace deeptune::evaluation {

/// The fold of each row of `rows` (same order), read from a folds file by joining on `index`.
/// Throws EvaluationError when a folds entry repeats an index, names an index that no row has, or
/// disagrees with the row on benchmark or dataset, and when a row has no folds entry; the message
/// names the folds row (1-based data row of the folds file) and the index.
std::vector<int> foldOfRows(const std::vector<data::DevmapRow>& rows,
                            const std::vector<data::FoldRow>& folds);

using data::DevmapPredictor;

/// Runs `predictor` once per distinct fold of `foldOfRow` (test = the rows of that fold, train =
/// all others) and returns one prediction per row. With workers > 1, folds run concurrently on
/// that many std::threads (at most one per fold); the result does not depend on `workers`.
/// Throws EvaluationError if foldOfRow.size() != rowCount, a fold is negative, there are fewer than
/// two folds, workers < 1, or the predictor returns a wrong count or a label other than CPU/GPU. An
/// exception thrown by the predictor is rethrown (after all threads have joined); when several
/// folds fail, the one with the smallest fold number wins.
std::vector<std::string> crossValidate(size_t rowCount, const std::vector<int>& foldOfRow,
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

/// Leave one suite out: fold = index of the row's suite (parseBenchmarkName().suite) among the
/// distinct suites of `rows` sorted by name. Rows whose benchmark name does not parse share the
/// suite "" (fold 0 if present).
std::vector<int> foldsBySuite(const std::vector<data::DevmapRow>& rows);

/// The distinct suites of `rows` in fold order of foldsBySuite() (raw names, e.g. "amd-app-sdk").
std::vector<std::string> suitesInFoldOrder(const std::vector<data::DevmapRow>& rows);

/// k folds grouped by kernel source (`src`): rows with the same text always share a fold, so no
/// source is in both train and test. Groups are shuffled with `seed` (deterministic on every
/// platform), then assigned largest first to the fold with the fewest rows (ties: lowest fold).
/// Throws EvaluationError if k < 2 or k exceeds the number of distinct sources.
std::vector<int> foldsByKernel(const std::vector<data::DevmapRow>& rows, int k, uint64_t seed);

}  // namespace deeptune::evaluation
