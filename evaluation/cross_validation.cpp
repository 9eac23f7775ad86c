// Cross-validation of device-mapping predictors: the (threaded) runner and training subsets.
#include "evaluation/cross_validation.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "data/parallel_for.hpp"
#include "evaluation/evaluation_error.hpp"

namespace deeptune::evaluation {

namespace {

/// Checks one fold's predictions and stores them into `out` (its probabilities too, where the
/// method gives them: every fold or none).
void storePredictions(int fold, const std::vector<size_t>& testRows,
                      const data::DevmapPredictions& predicted, data::DevmapPredictions& out) {
  const std::string where = "fold " + std::to_string(fold) + ": predictor returned ";
  if (predicted.devices.size() != testRows.size()) {
    throw EvaluationError(where + std::to_string(predicted.devices.size()) + " labels for " +
                          std::to_string(testRows.size()) + " test rows");
  }
  const bool probabilities = !predicted.gpuProbability.empty();
  if (probabilities && predicted.gpuProbability.size() != testRows.size()) {
    throw EvaluationError(where + std::to_string(predicted.gpuProbability.size()) +
                          " probabilities for " + std::to_string(testRows.size()) + " test rows");
  }
  for (size_t i = 0; i < testRows.size(); ++i) {
    if (predicted.devices[i] != "CPU" && predicted.devices[i] != "GPU") {
      throw EvaluationError(where + "label '" + predicted.devices[i] + "' (expected CPU or GPU)");
    }
    out.devices[testRows[i]] = predicted.devices[i];
    if (!probabilities) continue;
    const double p = predicted.gpuProbability[i];
    if (!(p >= 0 && p <= 1)) {
      throw EvaluationError(where + "probability " + std::to_string(p) + " (expected 0 to 1)");
    }
    out.gpuProbability[testRows[i]] = p;
  }
}

}  // namespace

DevmapPredictor withTrainingSubset(const DevmapPredictor& predictor,
                                   const std::vector<data::DevmapRow>& rows,
                                   const TrainingSubset& subset) {
  if (subset.kernels < 0) throw EvaluationError("training subset: kernels must be >= 0");
  if (subset.kernels == 0) return predictor;
  return [predictor, &rows, subset](const std::vector<size_t>& trainRows,
                                    const std::vector<size_t>& testRows, int fold) {
    std::set<std::string> sources;
    for (size_t row : trainRows) sources.insert(rows.at(row).src);
    if (static_cast<size_t>(subset.kernels) >= sources.size()) {
      return predictor(trainRows, testRows, fold);
    }
    std::vector<const std::string*> order;
    for (const std::string& source : sources) order.push_back(&source);
    std::mt19937_64 random(subset.seed + static_cast<uint64_t>(fold));
    for (size_t i = order.size() - 1; i > 0; --i) {  // Fisher-Yates, platform-independent
      std::swap(order[i], order[random() % (i + 1)]);
    }
    std::set<std::string> kept;
    for (int i = 0; i < subset.kernels; ++i) kept.insert(*order[static_cast<size_t>(i)]);
    std::vector<size_t> keptRows;
    for (size_t row : trainRows) {
      if (kept.count(rows[row].src) > 0) keptRows.push_back(row);
    }
    return predictor(keptRows, testRows, fold);
  };
}

data::DevmapPredictions crossValidate(size_t rowCount, const std::vector<int>& foldOfRow,
                                      const DevmapPredictor& predictor, int workers) {
  if (foldOfRow.size() != rowCount) {
    throw EvaluationError("cross-validation: " + std::to_string(foldOfRow.size()) +
                          " fold numbers for " + std::to_string(rowCount) + " rows");
  }
  if (workers < 1) throw EvaluationError("cross-validation: workers must be >= 1");
  std::map<int, std::vector<size_t>> testOfFold;
  for (size_t i = 0; i < rowCount; ++i) {
    if (foldOfRow[i] < 0)
      throw EvaluationError("cross-validation: row " + std::to_string(i) + " has a negative fold");
    testOfFold[foldOfRow[i]].push_back(i);
  }
  if (testOfFold.size() < 2) throw EvaluationError("cross-validation needs at least two folds");

  const std::vector<int> folds = [&] {
    std::vector<int> v;
    for (const auto& entry : testOfFold) v.push_back(entry.first);
    return v;
  }();
  data::DevmapPredictions result{std::vector<std::string>(rowCount),
                                 std::vector<double>(rowCount, -1.0)};
  std::vector<char> foldHasProbabilities(folds.size(), 0);
  // Each fold writes only its own test rows of `result`, so no lock is needed. Folds are handed
  // out in increasing fold number, so a failure rethrown is the smallest failing fold's.
  data::parallelFor(folds.size(), workers, [&](size_t k) {
    const int fold = folds[k];
    const std::vector<size_t>& testRows = testOfFold.at(fold);
    std::vector<size_t> trainRows;
    trainRows.reserve(rowCount - testRows.size());
    for (size_t i = 0; i < rowCount; ++i) {
      if (foldOfRow[i] != fold) trainRows.push_back(i);
    }
    const data::DevmapPredictions predicted = predictor(trainRows, testRows, fold);
    foldHasProbabilities[k] = predicted.gpuProbability.empty() ? 0 : 1;
    storePredictions(fold, testRows, predicted, result);
  });
  const size_t withProbabilities =
      static_cast<size_t>(std::count(foldHasProbabilities.begin(), foldHasProbabilities.end(), 1));
  if (withProbabilities != 0 && withProbabilities != folds.size()) {
    throw EvaluationError("cross-validation: the predictor gave probabilities for " +
                          std::to_string(withProbabilities) + " of " +
                          std::to_string(folds.size()) + " folds");
  }
  if (withProbabilities == 0) result.gpuProbability.clear();
  return result;
}

}  // namespace deeptune::evaluation
