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

/// Checks one fold's predictions and stores them into `out`.
void storePredictions(int fold, const std::vector<size_t>& testRows,
                      const std::vector<std::string>& predicted, std::vector<std::string>& out) {
  if (predicted.size() != testRows.size()) {
    throw EvaluationError("fold " + std::to_string(fold) + ": predictor returned " +
                          std::to_string(predicted.size()) + " labels for " +
                          std::to_string(testRows.size()) + " test rows");
  }
  for (size_t i = 0; i < testRows.size(); ++i) {
    if (predicted[i] != "CPU" && predicted[i] != "GPU") {
      throw EvaluationError("fold " + std::to_string(fold) + ": predictor returned label '" +
                            predicted[i] + "' (expected CPU or GPU)");
    }
    out[testRows[i]] = predicted[i];
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

std::vector<std::string> crossValidate(size_t rowCount, const std::vector<int>& foldOfRow,
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
  std::vector<std::string> result(rowCount);
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
    storePredictions(fold, testRows, predictor(trainRows, testRows, fold), result);
  });
  return result;
}

}  // namespace deeptune::evaluation
