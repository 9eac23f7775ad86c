// DeepTune cross-validated with several seeds: the runs, their fold records and their ensemble.
#include "training/deeptune_runs.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

#include "baselines/grewe_tree.hpp"
#include "evaluation/cross_validation.hpp"
#include "model/boosted_trees.hpp"
#include "model/compute_environment.hpp"
#include "training/training_error.hpp"

namespace deeptune::training {
namespace {

/// The runs' GPU probabilities of each row averaged, thresholded at 0.5 (see DeepTuneRuns).
evaluation::MethodPredictions ensembleOf(const std::vector<model::FoldTraining>& folds,
                                         size_t rowCount, int runs) {
  std::vector<double> sum(rowCount, 0.0);
  std::vector<int> count(rowCount, 0);
  for (const model::FoldTraining& fold : folds) {
    for (size_t i = 0; i < fold.testRowIndices.size(); ++i) {
      sum.at(fold.testRowIndices[i]) += fold.testGpuProbability.at(i);
      ++count[fold.testRowIndices[i]];
    }
  }
  evaluation::MethodPredictions ensemble{"deeptune-ensemble", {}, "deeptune-ensemble"};
  for (size_t row = 0; row < rowCount; ++row) {
    if (count[row] != runs) throw TrainingError("ensemble: a row lacks a run's prediction");
    ensemble.gpuProbability.push_back(sum[row] / runs);
    ensemble.devices.push_back(ensemble.gpuProbability.back() > 0.5 ? "GPU" : "CPU");
  }
  return ensemble;
}

/// A state head's features of one row (model::stateHeadFeatures: the state, log2 of the launch
/// inputs).
std::vector<float> stateHeadFeatures(const std::vector<float>& state, const data::DevmapRow& row) {
  return model::stateHeadFeatures(state, {row.transfer, static_cast<double>(row.wgsize)});
}

/// One fold's state-head data: training features and labels, test features.
struct FoldFeatures {
  std::vector<std::vector<float>> train, test;
  std::vector<int> labels;
};

FoldFeatures foldFeatures(const model::FoldTraining& fold, const std::vector<data::DevmapRow>& rows,
                          bool tokenCounts) {
  if (fold.trainStates.size() != fold.trainRowIndices.size() ||
      fold.testStates.size() != fold.testRowIndices.size()) {
    throw TrainingError("state head: fold " + std::to_string(fold.fold + 1) +
                        " kept no language-model states");
  }
  if (tokenCounts && (fold.trainTokenCounts.size() != fold.trainStates.size() ||
                      fold.testTokenCounts.size() != fold.testStates.size())) {
    throw TrainingError("state head: fold " + std::to_string(fold.fold + 1) +
                        " kept no token counts");
  }
  const auto inputs = [tokenCounts](const std::vector<float>& state,
                                    const std::vector<std::vector<float>>& counts, size_t i) {
    if (!tokenCounts) return state;
    std::vector<float> joined = state;
    joined.insert(joined.end(), counts[i].begin(), counts[i].end());
    return joined;
  };
  FoldFeatures features;
  for (size_t i = 0; i < fold.trainRowIndices.size(); ++i) {
    const data::DevmapRow& row = rows.at(fold.trainRowIndices[i]);
    features.train.push_back(
        stateHeadFeatures(inputs(fold.trainStates[i], fold.trainTokenCounts, i), row));
    features.labels.push_back(row.oracle == "GPU" ? 1 : 0);
  }
  for (size_t i = 0; i < fold.testRowIndices.size(); ++i) {
    features.test.push_back(stateHeadFeatures(inputs(fold.testStates[i], fold.testTokenCounts, i),
                                              rows.at(fold.testRowIndices[i])));
  }
  return features;
}

/// One run's state head: per fold, `predictFold` (training features, labels, test features ->
/// GPU probability of each test row) fitted and applied; each row's probability and device.
template <typename PredictFold>
evaluation::MethodPredictions stateHeadOf(const std::vector<model::FoldTraining>& folds,
                                          const std::vector<data::DevmapRow>& rows,
                                          const std::string& name, const std::string& group,
                                          const PredictFold& predictFold,
                                          std::vector<double>& probabilities,
                                          bool tokenCounts = false) {
  evaluation::MethodPredictions head{name, std::vector<std::string>(rows.size()), group};
  probabilities.assign(rows.size(), -1.0);
  for (const model::FoldTraining& fold : folds) {
    const FoldFeatures features = foldFeatures(fold, rows, tokenCounts);
    const std::vector<double> gpu = predictFold(features);
    for (size_t i = 0; i < fold.testRowIndices.size(); ++i) {
      const size_t row = fold.testRowIndices[i];
      probabilities.at(row) = gpu.at(i);
      head.devices.at(row) = gpu[i] > 0.5 ? "GPU" : "CPU";
    }
  }
  for (const std::string& device : head.devices) {
    if (device.empty()) throw TrainingError(name + ": a row has no prediction");
  }
  head.gpuProbability = probabilities;
  return head;
}

/// The tree head: a DecisionTree with the Grewe tree's options (depth 5).
std::vector<double> treeHeadFold(const FoldFeatures& features) {
  const auto widen = [](const std::vector<std::vector<float>>& rows) {
    std::vector<std::vector<double>> wide;
    for (const auto& row : rows) wide.emplace_back(row.begin(), row.end());
    return wide;
  };
  baselines::DecisionTree tree;
  tree.fit(widen(features.train), features.labels, 2);
  std::vector<double> gpu;
  for (const auto& row : widen(features.test)) gpu.push_back(tree.predict(row) == 1 ? 1.0 : 0.0);
  return gpu;
}

}  // namespace

DeepTuneRuns crossValidateDeepTune(const std::vector<data::DevmapRow>& rows,
                                   const std::vector<int>& foldOfRow,
                                   const tokenizer::Vocabulary& vocabulary,
                                   const model::DeepTuneMethodOptions& options, int seeds,
                                   int workers, const StateHeads& heads,
                                   RunProgressCallback progress, model::FoldDoneCallback done,
                                   const evaluation::TrainingSubset& subset) {
  if (seeds < 1 || workers < 1)
    throw TrainingError("DeepTune runs: seeds and workers must be >= 1");
  if ((heads.tree || heads.boosted || heads.boostedTokenCounts) && !options.keepStates) {
    throw TrainingError("DeepTune runs: state heads need the fold models' states kept");
  }
  std::vector<double> boostedSum(rows.size(), 0.0), countSum(rows.size(), 0.0);
  DeepTuneRuns result;
  std::string unsafe;
  result.workers = model::safeTrainingWorkers(workers, unsafe);
  model::setComputeThreads(1);
  for (int run = 0; run < seeds; ++run) {
    model::DeepTuneMethodOptions runOptions = options;
    runOptions.train.seed = options.train.seed + 1000 * static_cast<uint64_t>(run);
    const std::string name =
        seeds == 1 ? "deeptune" : "deeptune-s" + std::to_string(runOptions.train.seed);
    std::mutex foldsMutex;
    std::vector<model::FoldTraining> runFolds;
    const evaluation::DevmapPredictor predictor =
        evaluation::withTrainingSubset(model::deeptunePredictor(
                                           rows, vocabulary, runOptions,
                                           [&](int fold, const model::EpochProgress& epoch) {
                                             if (progress) progress(run, fold, epoch);
                                           },
                                           [&](const model::FoldTraining& record) {
                                             model::FoldTraining named = record;
                                             named.method = name;
                                             {
                                               std::lock_guard<std::mutex> lock(foldsMutex);
                                               runFolds.push_back(named);
                                             }
                                             if (done) done(named);
                                           }),
                                       rows, subset);
    data::DevmapPredictions predicted =
        evaluation::crossValidate(rows.size(), foldOfRow, predictor, result.workers);
    result.runs.push_back(
        {name, std::move(predicted.devices), "deeptune", std::move(predicted.gpuProbability)});
    result.seeds.push_back(runOptions.train.seed);
    std::sort(
        runFolds.begin(), runFolds.end(),
        [](const model::FoldTraining& a, const model::FoldTraining& b) { return a.fold < b.fold; });
    const auto headName = [&](const std::string& group) {
      return seeds == 1 ? group : group + "-s" + std::to_string(runOptions.train.seed);
    };
    std::vector<double> probabilities;
    if (heads.tree) {
      result.treeHeads.push_back(stateHeadOf(runFolds, rows, headName("deeptune-tree"),
                                             "deeptune-tree", treeHeadFold, probabilities));
      result.treeHeads.back().gpuProbability.clear();  // a tree's answer, not a probability
    }
    const auto boostedFoldSampling = [&](double columnSample) {
      return [&, columnSample](const FoldFeatures& features) {
        model::BoostedTreeOptions boosted;
        boosted.seed = runOptions.train.seed;
        boosted.columnSample = columnSample;
        return model::boostedTreeProbabilities(features.train, features.labels, features.test,
                                               boosted);
      };
    };
    const auto boostedFold = boostedFoldSampling(1.0);
    if (heads.boosted) {
      result.boostedHeads.push_back(stateHeadOf(runFolds, rows, headName("deeptune-boosted"),
                                                "deeptune-boosted", boostedFold, probabilities));
      for (size_t row = 0; row < rows.size(); ++row) boostedSum[row] += probabilities[row];
    }
    if (heads.boostedTokenCounts) {
      result.boostedCountHeads.push_back(
          stateHeadOf(runFolds, rows, headName("deeptune-boosted-tc"), "deeptune-boosted-tc",
                      boostedFoldSampling(heads.countsColumnSample), probabilities,
                      /*tokenCounts=*/true));
      for (size_t row = 0; row < rows.size(); ++row) countSum[row] += probabilities[row];
    }
    for (model::FoldTraining& fold : runFolds) {  // the states have served
      fold.trainStates.clear();
      fold.testStates.clear();
      fold.trainTokenCounts.clear();
      fold.testTokenCounts.clear();
    }
    result.folds.insert(result.folds.end(), runFolds.begin(), runFolds.end());
  }
  if (seeds > 1) result.ensemble = ensembleOf(result.folds, rows.size(), seeds);
  const auto averaged = [seeds](const std::string& name, const std::vector<double>& sums) {
    evaluation::MethodPredictions ensemble{name, {}, name};
    for (double sum : sums) {
      ensemble.gpuProbability.push_back(sum / seeds);
      ensemble.devices.push_back(sum / seeds > 0.5 ? "GPU" : "CPU");
    }
    return ensemble;
  };
  if (seeds > 1 && heads.boosted) {
    result.boostedEnsemble = averaged("deeptune-boosted-ensemble", boostedSum);
  }
  if (seeds > 1 && heads.boostedTokenCounts) {
    result.boostedCountEnsemble = averaged("deeptune-boosted-tc-ensemble", countSum);
  }
  return result;
}

}  // namespace deeptune::training
