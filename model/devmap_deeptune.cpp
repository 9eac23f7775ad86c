// DeepTune as a device-mapping method for cross-validation: train on a fold, predict the rest.
#include "model/devmap_deeptune.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>

#include "model/boosted_tree_head.hpp"
#include "model/devmap_data.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {

std::vector<Example> holdOutSources(std::vector<Example>& train, double fraction, uint64_t seed) {
  std::map<std::vector<int>, std::vector<size_t>> sources;  // sorted: the same on every platform
  for (size_t i = 0; i < train.size(); ++i) sources[train[i].tokens].push_back(i);
  if (fraction <= 0 || sources.size() < 2) return {};
  std::vector<const std::vector<size_t>*> order;
  for (const auto& entry : sources) order.push_back(&entry.second);
  std::mt19937_64 random(seed);
  for (size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[random() % (i + 1)]);
  const size_t count = std::clamp<size_t>(
      static_cast<size_t>(std::lround(fraction * static_cast<double>(order.size()))), 1,
      order.size() - 1);
  std::vector<bool> held(train.size(), false);
  for (size_t s = 0; s < count; ++s) {
    for (size_t i : *order[s]) held[i] = true;
  }
  std::vector<Example> kept, validation;
  for (size_t i = 0; i < train.size(); ++i) (held[i] ? validation : kept).push_back(train[i]);
  train = std::move(kept);
  return validation;
}

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
  sharedInfo.pooling = options.pooling;
  return [allRows, examples, sharedInfo, vocabulary, options, progress, done](
             const std::vector<size_t>& trainRows, const std::vector<size_t>& testRows, int fold) {
    std::vector<Example> train, test;
    ModelInfo info = sharedInfo;
    std::set<std::vector<int>> pretrainSequences;  // distinct, in a portable order
    if (options.vocabularyPerFold) {
      std::vector<data::DevmapRow> trainData, testData;
      for (size_t row : trainRows) trainData.push_back((*allRows)[row]);
      for (size_t row : testRows) testData.push_back((*allRows)[row]);
      const tokenizer::Vocabulary foldVocabulary =
          devmapVocabulary(trainData, "fold " + std::to_string(fold + 1));
      info = devmapModelInfo(foldVocabulary, options.maxLength, options.paperPadding);
      info.auxScale = options.auxScale;
      info.pooling = options.pooling;
      train = devmapExamples(trainData, foldVocabulary, options.maxLength);
      test = devmapExamples(testData, foldVocabulary, options.maxLength);
      for (const std::string& source : options.pretrainSources) {
        pretrainSequences.insert(modelTokens(foldVocabulary, source, options.maxLength));
      }
    } else {
      for (size_t row : trainRows) train.push_back((*examples)[row]);
      for (size_t row : testRows) test.push_back((*examples)[row]);
      for (const std::string& source : options.pretrainSources) {
        pretrainSequences.insert(modelTokens(vocabulary, source, options.maxLength));
      }
    }
    TrainOptions trainOptions = options.train;
    trainOptions.seed = options.train.seed + static_cast<uint64_t>(fold);
    // The states are kept for every training row, held out for validation or not.
    const std::vector<Example> allTrain = options.keepStates ? train : std::vector<Example>{};
    trainOptions.validation = holdOutSources(train, options.earlyStopping, trainOptions.seed);
    DeepTuneModel model = [&] {
      if (options.startFrom.empty()) return DeepTuneModel(info, trainOptions.seed);
      DeepTuneModel source = DeepTuneModel::load(options.startFrom);  // its first network
      if (options.startWhole) {
        source.info() = info;
        return source;
      }
      DeepTuneModel fresh(info, trainOptions.seed);
      fresh.transferLanguageModel(source);
      return fresh;
    }();
    FoldTraining record;
    if (options.pretrainEpochs > 0) {
      // Every training source (validation ones included) and the extra sources.
      for (const Example& example : train) pretrainSequences.insert(example.tokens);
      for (const Example& example : trainOptions.validation) {
        pretrainSequences.insert(example.tokens);
      }
      PretrainOptions pretrain;
      pretrain.epochs = options.pretrainEpochs;
      pretrain.seed = trainOptions.seed;
      pretrain.lstmThreads = trainOptions.lstmThreads;
      record.pretrainCurve = model.pretrainLanguageModel(
          std::vector<std::vector<int>>(pretrainSequences.begin(), pretrainSequences.end()),
          pretrain);
    }
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
      record.trainStates = model.languageModelStates(allTrain);
      record.testStates = model.languageModelStates(test);
      if (options.keepTokenCounts) {
        for (const Example& example : allTrain) {
          record.trainTokenCounts.push_back(tokenCounts(example.tokens, info.vocabulary.size()));
        }
        for (const Example& example : test) {
          record.testTokenCounts.push_back(tokenCounts(example.tokens, info.vocabulary.size()));
        }
      }
    }
    record.testRows = test.size();
    if (done) done(record);
    return devices;
  };
}

}  // namespace deeptune::model
