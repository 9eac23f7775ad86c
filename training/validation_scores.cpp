// Validation scores of device-mapping methods, on inner folds of each outer fold's training rows.
#include "training/validation_scores.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>

#include "data/parallel_for.hpp"
#include "evaluation/devmap_metrics.hpp"

namespace deeptune::training {
namespace {

/// Correct and total predictions per suite.
using SuiteTally = std::map<std::string, std::pair<size_t, size_t>>;

/// The inner folds of `train`: its sources in order of first appearance, shuffled with `seed`,
/// source j in inner fold j % kInnerFolds; returns each inner fold's rows (ascending).
std::vector<std::vector<size_t>> innerFolds(const std::vector<data::DevmapRow>& rows,
                                            const std::vector<size_t>& train, uint64_t seed) {
  std::vector<std::string> sources;
  std::map<std::string, size_t> sourceIndex;
  for (size_t i : train) {
    if (sourceIndex.emplace(rows[i].src, sources.size()).second) sources.push_back(rows[i].src);
  }
  std::vector<size_t> order(sources.size());
  for (size_t j = 0; j < order.size(); ++j) order[j] = j;
  std::mt19937_64 random(seed);
  std::shuffle(order.begin(), order.end(), random);
  std::vector<size_t> foldOfSource(sources.size());
  for (size_t j = 0; j < order.size(); ++j) foldOfSource[order[j]] = j % kInnerFolds;
  std::vector<std::vector<size_t>> folds(kInnerFolds);
  for (size_t i : train) folds[foldOfSource[sourceIndex.at(rows[i].src)]].push_back(i);
  return folds;
}

}  // namespace

std::vector<ValidationScore> validationScores(
    const std::vector<data::DevmapRow>& rows, const evaluation::Protocol& protocol,
    const std::vector<std::pair<std::string, data::DevmapPredictor>>& methods, uint64_t seed,
    int workers) {
  // tallies[method][outer fold]: filled by one thread per outer fold, summed afterwards.
  std::vector<std::vector<SuiteTally>> tallies(
      methods.size(), std::vector<SuiteTally>(static_cast<size_t>(protocol.folds)));
  data::parallelFor(static_cast<size_t>(protocol.folds), workers, [&](size_t fold) {
    const std::vector<size_t> train = protocol.rowsOf(static_cast<int>(fold)).train;
    const auto inner = innerFolds(rows, train, seed + fold);
    for (size_t k = 0; k < inner.size(); ++k) {
      if (inner[k].empty()) continue;
      std::vector<size_t> fit;
      for (size_t other = 0; other < inner.size(); ++other) {
        if (other != k) fit.insert(fit.end(), inner[other].begin(), inner[other].end());
      }
      std::sort(fit.begin(), fit.end());
      for (size_t m = 0; m < methods.size(); ++m) {
        const auto predicted = methods[m].second(fit, inner[k], static_cast<int>(fold));
        for (size_t t = 0; t < inner[k].size(); ++t) {
          const data::DevmapRow& row = rows[inner[k][t]];
          auto& tally = tallies[m][fold][evaluation::suiteOf(row)];
          tally.first += predicted.at(t) == row.oracle ? 1 : 0;
          tally.second += 1;
        }
      }
    }
  });
  std::vector<ValidationScore> scores;
  for (size_t m = 0; m < methods.size(); ++m) {
    SuiteTally total;
    for (const SuiteTally& fold : tallies[m]) {
      for (const auto& [suite, tally] : fold) {
        total[suite].first += tally.first;
        total[suite].second += tally.second;
      }
    }
    ValidationScore score{methods[m].first};
    size_t correct = 0;
    for (const auto& [suite, tally] : total) {
      correct += tally.first;
      score.predictions += tally.second;
      score.suiteMean += static_cast<double>(tally.first) / static_cast<double>(tally.second);
    }
    if (!total.empty()) score.suiteMean /= static_cast<double>(total.size());
    if (score.predictions > 0) {
      score.accuracy = static_cast<double>(correct) / static_cast<double>(score.predictions);
    }
    scores.push_back(score);
  }
  return scores;
}

std::string validationTable(const std::string& platform, const std::string& protocol,
                            const std::vector<ValidationScore>& scores) {
  std::string text = platform + ", " + protocol + ": validation on " + std::to_string(kInnerFolds) +
                     " inner folds of each fold's training sources (no test row read)\n";
  char line[200];
  std::snprintf(line, sizeof line, "%-20s %9s %10s %12s\n", "method", "accuracy", "suite mean",
                "predictions");
  text += line;
  for (const ValidationScore& score : scores) {
    std::snprintf(line, sizeof line, "%-20s %8.1f%% %9.1f%% %12zu\n", score.method.c_str(),
                  100 * score.accuracy, 100 * score.suiteMean, score.predictions);
    text += line;
  }
  return text;
}

}  // namespace deeptune::training
