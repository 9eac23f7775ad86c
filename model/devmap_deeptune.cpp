// DeepTune as a device-mapping method for cross-validation: train on a fold, predict the rest.
#include "model/devmap_deeptune.hpp"

#include <algorithm>
#include <memory>
#include <mutex>

#include "model/compute_environment.hpp"
#include "model/devmap_data.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {
namespace {

/// The runs' GPU probabilities of each row averaged, thresholded at 0.5 (see DeepTuneRuns).
MethodPredictions ensembleOf(const std::vector<FoldTraining>& folds, size_t rowCount, int runs) {
  std::vector<double> sum(rowCount, 0.0);
  std::vector<int> count(rowCount, 0);
  for (const FoldTraining& fold : folds) {
    for (size_t i = 0; i < fold.testRowIndices.size(); ++i) {
      sum.at(fold.testRowIndices[i]) += fold.testGpuProbability.at(i);
      ++count[fold.testRowIndices[i]];
    }
  }
  MethodPredictions ensemble{"deeptune-ensemble", {}, "deeptune-ensemble"};
  for (size_t row = 0; row < rowCount; ++row) {
    if (count[row] != runs) throw ModelError("ensemble: a row lacks a run's prediction");
    ensemble.devices.push_back(sum[row] / runs > 0.5 ? "GPU" : "CPU");
  }
  return ensemble;
}

}  // namespace

DevmapPredictor deeptunePredictor(const std::vector<data::DevmapRow>& rows,
                                  const tokenizer::Vocabulary& vocabulary,
                                  const DeepTuneMethodOptions& options,
                                  FoldProgressCallback progress, FoldDoneCallback done) {
  // Encoded once, shared read-only by the folds' threads (per fold when each has its vocabulary).
  auto allRows = std::make_shared<const std::vector<data::DevmapRow>>(
      options.vocabularyPerFold ? rows : std::vector<data::DevmapRow>{});
  auto examples = std::make_shared<const std::vector<Example>>(
      options.vocabularyPerFold ? std::vector<Example>{}
                                : devmapExamples(rows, vocabulary, options.maxLength));
  ModelInfo sharedInfo = devmapModelInfo(vocabulary, options.maxLength, options.paperPadding);
  sharedInfo.auxScale = options.auxScale;
  return [allRows, examples, sharedInfo, options, progress, done](
             const std::vector<size_t>& trainRows, const std::vector<size_t>& testRows,
             int fold) {
    std::vector<Example> train, test;
    ModelInfo info = sharedInfo;
    if (options.vocabularyPerFold) {
      std::vector<data::DevmapRow> trainData, testData;
      for (size_t row : trainRows) trainData.push_back((*allRows)[row]);
      for (size_t row : testRows) testData.push_back((*allRows)[row]);
      const tokenizer::Vocabulary foldVocabulary =
          devmapVocabulary(trainData, "fold " + std::to_string(fold + 1));
      info = devmapModelInfo(foldVocabulary, options.maxLength, options.paperPadding);
      info.auxScale = options.auxScale;
      train = devmapExamples(trainData, foldVocabulary, options.maxLength);
      test = devmapExamples(testData, foldVocabulary, options.maxLength);
    } else {
      for (size_t row : trainRows) train.push_back((*examples)[row]);
      for (size_t row : testRows) test.push_back((*examples)[row]);
    }
    TrainOptions trainOptions = options.train;
    trainOptions.seed = options.train.seed + static_cast<uint64_t>(fold);
    DeepTuneModel model(info, trainOptions.seed);
    FoldTraining record;
    record.seed = trainOptions.seed;
    record.fold = fold;
    record.training = model.train(train, trainOptions, [&](const EpochProgress& epoch) {
      if (progress) progress(fold, epoch);
    });
    std::vector<std::string> devices;
    const auto predicted = model.predict(test);
    for (size_t i = 0; i < predicted.size(); ++i) {
      const int label = predicted[i][1] > predicted[i][0] ? 1 : 0;
      devices.push_back(info.labels[label]);
      record.predictedGpu += devices.back() == "GPU";
      record.testCorrect += label == test[i].label;
      record.testGpuProbability.push_back(predicted[i][1]);
    }
    record.testRowIndices = testRows;
    record.testRows = test.size();
    if (done) done(record);
    return devices;
  };
}

DeepTuneRuns crossValidateDeepTune(const std::vector<data::DevmapRow>& rows,
                                   const std::vector<int>& foldOfRow,
                                   const tokenizer::Vocabulary& vocabulary,
                                   const DeepTuneMethodOptions& options, int seeds, int workers,
                                   RunProgressCallback progress, FoldDoneCallback done) {
  if (seeds < 1 || workers < 1) throw ModelError("DeepTune runs: seeds and workers must be >= 1");
  DeepTuneRuns result;
  std::string unsafe;
  result.workers = safeTrainingWorkers(workers, unsafe);
  setComputeThreads(1);
  for (int run = 0; run < seeds; ++run) {
    DeepTuneMethodOptions runOptions = options;
    runOptions.train.seed = options.train.seed + 1000 * static_cast<uint64_t>(run);
    const std::string name =
        seeds == 1 ? "deeptune" : "deeptune-s" + std::to_string(runOptions.train.seed);
    std::mutex foldsMutex;
    std::vector<FoldTraining> runFolds;
    const DevmapPredictor predictor = deeptunePredictor(
        rows, vocabulary, runOptions,
        [&](int fold, const EpochProgress& epoch) {
          if (progress) progress(run, fold, epoch);
        },
        [&](const FoldTraining& record) {
          FoldTraining named = record;
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
    std::sort(runFolds.begin(), runFolds.end(),
              [](const FoldTraining& a, const FoldTraining& b) { return a.fold < b.fold; });
    result.folds.insert(result.folds.end(), runFolds.begin(), runFolds.end());
  }
  if (seeds > 1) result.ensemble = ensembleOf(result.folds, rows.size(), seeds);
  return result;
}

}  // namespace deeptune::model
