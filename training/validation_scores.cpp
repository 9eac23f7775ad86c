// Validation scores of device-mapping methods, on inner folds of each outer fold's training rows.
#include "training/validation_scores.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>

#include "data/parallel_for.hpp"
#include "evaluation/calibration_metrics.hpp"
#include "evaluation/devmap_metrics.hpp"

namespace deeptune::training {
namespace {

/// Correct and total predictions per suite.
using SuiteTally = std::map<std::string, std::pair<size_t, size_t>>;

}  // namespace

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

std::vector<size_t> otherInnerFolds(const std::vector<std::vector<size_t>>& inner, size_t k) {
  std::vector<size_t> rows;
  for (size_t other = 0; other < inner.size(); ++other) {
    if (other != k) rows.insert(rows.end(), inner[other].begin(), inner[other].end());
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::vector<ValidationScore> validationScores(
    const std::vector<data::DevmapRow>& rows, const evaluation::Protocol& protocol,
    const std::vector<std::pair<std::string, data::DevmapPredictor>>& methods, uint64_t seed,
    int workers) {
  // tallies[method][outer fold]: filled by one thread per outer fold, summed afterwards; so are
  // the probabilities of the chosen devices and whether they were right, for the methods that
  // give them.
  const size_t folds = static_cast<size_t>(protocol.folds);
  std::vector<std::vector<SuiteTally>> tallies(methods.size(), std::vector<SuiteTally>(folds));
  std::vector<std::vector<std::vector<double>>> confidence(methods.size(),
                                                           std::vector<std::vector<double>>(folds));
  std::vector<std::vector<std::vector<bool>>> right(methods.size(),
                                                    std::vector<std::vector<bool>>(folds));
  data::parallelFor(static_cast<size_t>(protocol.folds), workers, [&](size_t fold) {
    const std::vector<size_t> train = protocol.rowsOf(static_cast<int>(fold)).train;
    const auto inner = innerFolds(rows, train, seed + fold);
    for (size_t k = 0; k < inner.size(); ++k) {
      if (inner[k].empty()) continue;
      const std::vector<size_t> fit = otherInnerFolds(inner, k);
      for (size_t m = 0; m < methods.size(); ++m) {
        const data::DevmapPredictions predicted =
            methods[m].second(fit, inner[k], static_cast<int>(fold));
        const bool probabilities = predicted.gpuProbability.size() == inner[k].size();
        for (size_t t = 0; t < inner[k].size(); ++t) {
          const data::DevmapRow& row = rows[inner[k][t]];
          const std::string& device = predicted.devices.at(t);
          auto& tally = tallies[m][fold][evaluation::suiteOf(row)];
          tally.first += device == row.oracle ? 1 : 0;
          tally.second += 1;
          if (!probabilities) continue;
          const double gpu = predicted.gpuProbability[t];
          confidence[m][fold].push_back(device == "GPU" ? gpu : 1 - gpu);
          right[m][fold].push_back(device == row.oracle);
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
    std::vector<double> allConfidence;
    std::vector<bool> allRight;
    for (size_t fold = 0; fold < folds; ++fold) {
      allConfidence.insert(allConfidence.end(), confidence[m][fold].begin(),
                           confidence[m][fold].end());
      allRight.insert(allRight.end(), right[m][fold].begin(), right[m][fold].end());
    }
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
    if (!allConfidence.empty() && allConfidence.size() == score.predictions) {
      score.calibrationError = evaluation::calibrationScores(allConfidence, allRight).expectedError;
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
  std::snprintf(line, sizeof line, "%-20s %9s %10s %12s %7s\n", "method", "accuracy", "suite mean",
                "predictions", "ECE");
  text += line;
  for (const ValidationScore& score : scores) {
    char ece[16] = "      -";
    if (score.calibrationError >= 0) {
      std::snprintf(ece, sizeof ece, "%7.3f", score.calibrationError);
    }
    std::snprintf(line, sizeof line, "%-20s %8.1f%% %9.1f%% %12zu %s\n", score.method.c_str(),
                  100 * score.accuracy, 100 * score.suiteMean, score.predictions, ece);
    text += line;
  }
  return text;
}

}  // namespace deeptune::training
