// Cross-validation of device-mapping predictors: fold joins, grouped folds and the (threaded)
// runner.
#include "evaluation/cross_validation.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <unordered_map>

#include "data/parallel_for.hpp"
#include "evaluation/evaluation_error.hpp"

namespace deeptune::evaluation {

std::vector<int> foldOfRows(const std::vector<data::DevmapRow>& rows,
                            const std::vector<data::FoldRow>& folds) {
  std::unordered_map<int, size_t> rowOfIndex;
  for (size_t i = 0; i < rows.size(); ++i) rowOfIndex.emplace(rows[i].index, i);

  std::vector<int> result(rows.size(), -1);
  for (size_t f = 0; f < folds.size(); ++f) {
    const data::FoldRow& entry = folds[f];
    const std::string where =
        "folds row " + std::to_string(f + 1) + " (index " + std::to_string(entry.index) + ")";
    const auto found = rowOfIndex.find(entry.index);
    if (found == rowOfIndex.end()) throw EvaluationError(where + ": no data row has this index");
    const data::DevmapRow& row = rows[found->second];
    if (entry.benchmark != row.benchmark || entry.dataset != row.dataset) {
      throw EvaluationError(where + ": names " + entry.benchmark + " / " + entry.dataset +
                            " but the data row is " + row.benchmark + " / " + row.dataset);
    }
    if (result[found->second] >= 0) throw EvaluationError(where + ": index given twice");
    if (entry.fold < 0) throw EvaluationError(where + ": negative fold");
    result[found->second] = entry.fold;
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    if (result[i] < 0) {
      throw EvaluationError("folds: no entry for data row index " + std::to_string(rows[i].index) +
                            " (" + rows[i].benchmark + " / " + rows[i].dataset + ")");
    }
  }
  return result;
}

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

std::vector<std::string> suitesInFoldOrder(const std::vector<data::DevmapRow>& rows) {
  std::vector<std::string> suites;
  for (const data::DevmapRow& row : rows)
    suites.push_back(data::parseBenchmarkName(row.benchmark).suite);
  std::sort(suites.begin(), suites.end());
  suites.erase(std::unique(suites.begin(), suites.end()), suites.end());
  return suites;
}

std::vector<int> foldsBySuite(const std::vector<data::DevmapRow>& rows) {
  const std::vector<std::string> suites = suitesInFoldOrder(rows);
  std::vector<int> result;
  result.reserve(rows.size());
  for (const data::DevmapRow& row : rows) {
    const std::string suite = data::parseBenchmarkName(row.benchmark).suite;
    result.push_back(
        static_cast<int>(std::lower_bound(suites.begin(), suites.end(), suite) - suites.begin()));
  }
  return result;
}

std::vector<int> foldsByKernel(const std::vector<data::DevmapRow>& rows, int k, uint64_t seed) {
  // Groups of rows sharing a source, in order of first appearance.
  std::unordered_map<std::string, size_t> groupOfSrc;
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto inserted = groupOfSrc.emplace(rows[i].src, groups.size());
    if (inserted.second) groups.emplace_back();
    groups[inserted.first->second].push_back(i);
  }
  if (k < 2 || static_cast<size_t>(k) > groups.size()) {
    throw EvaluationError("grouped folds: k = " + std::to_string(k) +
                          " must be between 2 and the " + std::to_string(groups.size()) +
                          " distinct kernel sources");
  }
  // Fisher-Yates with mt19937_64 (whose output the standard fixes), not std::shuffle (whose
  // algorithm is implementation-defined), so the folds are the same with every standard library.
  std::mt19937_64 random(seed);
  std::vector<size_t> order(groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random() % i]);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return groups[a].size() > groups[b].size(); });

  std::vector<size_t> foldSize(static_cast<size_t>(k), 0);
  std::vector<int> result(rows.size(), 0);
  for (size_t g : order) {
    const size_t fold =
        static_cast<size_t>(std::min_element(foldSize.begin(), foldSize.end()) - foldSize.begin());
    foldSize[fold] += groups[g].size();
    for (size_t row : groups[g]) result[row] = static_cast<int>(fold);
  }
  return result;
}

}  // namespace deeptune::evaluation
