// DeepTune cross-validated with several seeds: the runs, their fold records and their ensemble.
#include "evaluation/deeptune_runs.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

#include "baselines/grewe_tree.hpp"
#include "evaluation/cross_validation.hpp"
#include "evaluation/evaluation_error.hpp"
#include "model/compute_environment.hpp"

namespace deeptune::evaluation {
namespace {

/// The runs' GPU probabilities of each row averaged, thresholded at 0.5 (see DeepTuneRuns).
MethodPredictions ensembleOf(const std::vector<model::FoldTraining>& folds, size_t rowCount,
                             int runs) {
  std::vector<double> sum(rowCount, 0.0);
  std::vector<int> count(rowCount, 0);
  for (const model::FoldTraining& fold : folds) {
    for (size_t i = 0; i < fold.testRowIndices.size(); ++i) {
      sum.at(fold.testRowIndices[i]) += fold.testGpuProbability.at(i);
      ++count[fold.testRowIndices[i]];
    }
  }
  MethodPredictions ensemble{"deeptune-ensemble", {}, "deeptune-ensemble"};
  for (size_t row = 0; row < rowCount; ++row) {
    if (count[row] != runs) throw EvaluationError("ensemble: a row lacks a run's prediction");
    ensemble.devices.push_back(sum[row] / runs > 0.5 ? "GPU" : "CPU");
  }
  return ensemble;
}

/// A tree head's features of one row: the language model's state, then log2 of the two launch
/// inputs.
std::vector<double> treeHeadFeatures(const std::vector<float>& state, const data::DevmapRow& row) {
  std::vector<double> features(state.begin(), state.end());
  features.push_back(std::log2(std::max(1.0, row.transfer)));
  features.push_back(std::log2(std::max(1.0, static_cast<double>(row.wgsize))));
  return features;
}

/// One run's tree head: per fold, a DecisionTree (the Grewe tree's options) fitted on the
/// training rows' states and launch inputs, predicting the test rows.
MethodPredictions treeHeadOf(const std::vector<model::FoldTraining>& folds,
                             const std::vector<data::DevmapRow>& rows, const std::string& name) {
  MethodPredictions head{name, std::vector<std::string>(rows.size()), "deeptune-tree"};
  for (const model::FoldTraining& fold : folds) {
    if (fold.trainStates.size() != fold.trainRowIndices.size() ||
        fold.testStates.size() != fold.testRowIndices.size()) {
      throw EvaluationError("tree head: fold " + std::to_string(fold.fold + 1) +
                            " kept no language-model states");
    }
    std::vector<std::vector<double>> x;
    std::vector<int> y;
    for (size_t i = 0; i < fold.trainRowIndices.size(); ++i) {
      const data::DevmapRow& row = rows.at(fold.trainRowIndices[i]);
      x.push_back(treeHeadFeatures(fold.trainStates[i], row));
      y.push_back(row.oracle == "GPU" ? 1 : 0);
    }
    baselines::DecisionTree tree;
    tree.fit(x, y, 2);
    for (size_t i = 0; i < fold.testRowIndices.size(); ++i) {
      const size_t row = fold.testRowIndices[i];
      head.devices.at(row) =
          tree.predict(treeHeadFeatures(fold.testStates[i], rows.at(row))) == 1 ? "GPU" : "CPU";
    }
  }
  for (const std::string& device : head.devices) {
    if (device.empty()) throw EvaluationError("tree head: a row has no prediction");
  }
  return head;
}

}  // namespace

DeepTuneRuns crossValidateDeepTune(const std::vector<data::DevmapRow>& rows,
                                   const std::vector<int>& foldOfRow,
                                   const tokenizer::Vocabulary& vocabulary,
                                   const model::DeepTuneMethodOptions& options, int seeds,
                                   int workers, RunProgressCallback progress,
                                   model::FoldDoneCallback done) {
  if (seeds < 1 || workers < 1)
    throw EvaluationError("DeepTune runs: seeds and workers must be >= 1");
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
    const DevmapPredictor predictor = model::deeptunePredictor(
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
        });
    result.runs.push_back(
        {name, crossValidate(rows.size(), foldOfRow, predictor, result.workers), "deeptune"});
    result.seeds.push_back(runOptions.train.seed);
    std::sort(
        runFolds.begin(), runFolds.end(),
        [](const model::FoldTraining& a, const model::FoldTraining& b) { return a.fold < b.fold; });
    if (options.keepStates) {
      const std::string treeName =
          seeds == 1 ? "deeptune-tree" : "deeptune-tree-s" + std::to_string(runOptions.train.seed);
      result.treeHeads.push_back(treeHeadOf(runFolds, rows, treeName));
    }
    for (model::FoldTraining& fold : runFolds) {  // the states have served
      fold.trainStates.clear();
      fold.testStates.clear();
    }
    result.folds.insert(result.folds.end(), runFolds.begin(), runFolds.end());
  }
  if (seeds > 1) result.ensemble = ensembleOf(result.folds, rows.size(), seeds);
  return result;
}

}  // namespace deeptune::evaluation
