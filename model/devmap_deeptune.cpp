// DeepTune as a device-mapping method for cross-validation: train on a fold, predict the rest.
#include "model/devmap_deeptune.hpp"

#include <algorithm>
#include <memory>
#include <mutex>

#include "model/compute_environment.hpp"
#include "model/devmap_data.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {

DevmapPredictor deeptunePredictor(const std::vector<data::DevmapRow>& rows,
                                  const tokenizer::Vocabulary& vocabulary,
                                  const DeepTuneMethodOptions& options,
                                  FoldProgressCallback progress, FoldDoneCallback done) {
  // Encoded once, shared read-only by the folds' threads.
  auto examples = std::make_shared<const std::vector<Example>>(
      devmapExamples(rows, vocabulary, options.maxLength));
  const ModelInfo info = devmapModelInfo(vocabulary, options.maxLength, options.paperPadding);
  return [examples, info, options, progress, done](const std::vector<size_t>& trainRows,
                                                   const std::vector<size_t>& testRows, int fold) {
    std::vector<Example> train, test;
    for (size_t row : trainRows) train.push_back((*examples)[row]);
    for (size_t row : testRows) test.push_back((*examples)[row]);
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
    }
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
  return result;
}

}  // namespace deeptune::model
