// DeepTune as a device-mapping method for cross-validation: train on a fold, predict the rest.
#include "model/devmap_deeptune.hpp"

#include <algorithm>
#include <memory>
#include <mutex>

#include "model/devmap_data.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {

data::DevmapPredictor deeptunePredictor(const std::vector<data::DevmapRow>& rows,
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
             const std::vector<size_t>& trainRows, const std::vector<size_t>& testRows, int fold) {
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
    record.vocabularySize = info.vocabulary.size();
    if (options.keepStates) {
      record.trainRowIndices = trainRows;
      record.trainStates = model.languageModelStates(train);
      record.testStates = model.languageModelStates(test);
    }
    record.testRows = test.size();
    if (done) done(record);
    return devices;
  };
}

}  // namespace deeptune::model
