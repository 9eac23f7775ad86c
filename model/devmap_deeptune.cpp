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

namespace {

/// A fold's examples, the network's metadata and the distinct sequences to pretrain on.
struct FoldData {
  std::vector<Example> train, test;
  ModelInfo info;
  std::set<std::vector<int>> pretrainSequences;  // distinct, in a portable order
};

/// Fold data under the protocol's vocabulary rule: the fold's own vocabulary from its training
/// rows (`allRows`), or the examples encoded once with the shared one (`examples`).
FoldData foldData(const std::vector<data::DevmapRow>& allRows, const std::vector<Example>& examples,
                  const ModelInfo& sharedInfo, const tokenizer::Vocabulary& vocabulary,
                  const DeepTuneMethodOptions& options, const std::vector<size_t>& trainRows,
                  const std::vector<size_t>& testRows, int fold) {
  FoldData data;
  data.info = sharedInfo;
  if (!options.vocabularyPerFold) {
    for (size_t row : trainRows) data.train.push_back(examples[row]);
    for (size_t row : testRows) data.test.push_back(examples[row]);
    for (const std::string& source : options.pretrainSources) {
      data.pretrainSequences.insert(modelTokens(vocabulary, source, options.maxLength));
    }
    return data;
  }
  std::vector<data::DevmapRow> trainData, testData;
  for (size_t row : trainRows) trainData.push_back(allRows[row]);
  for (size_t row : testRows) testData.push_back(allRows[row]);
  const tokenizer::Vocabulary foldVocabulary =
      devmapVocabulary(trainData, "fold " + std::to_string(fold + 1));
  data.info = devmapModelInfo(foldVocabulary, options.maxLength, options.paperPadding);
  data.info.auxScale = options.auxScale;
  data.info.pooling = options.pooling;
  data.info.lstmSize = options.lstmSize;
  data.train = devmapExamples(trainData, foldVocabulary, options.maxLength);
  data.test = devmapExamples(testData, foldVocabulary, options.maxLength);
  for (const std::string& source : options.pretrainSources) {
    data.pretrainSequences.insert(modelTokens(foldVocabulary, source, options.maxLength));
  }
  return data;
}

/// The fold's network before training: fresh, or from options.startFrom (whole, or its
/// language model in a fresh network).
DeepTuneModel startingModel(const DeepTuneMethodOptions& options, const ModelInfo& info,
                            uint64_t seed) {
  if (options.startFrom.empty()) return DeepTuneModel(info, seed);
  DeepTuneModel source = DeepTuneModel::load(options.startFrom);  // its first network
  if (options.startWhole) {
    source.info() = info;
    return source;
  }
  DeepTuneModel fresh(info, seed);
  fresh.transferLanguageModel(source);
  return fresh;
}

/// The test rows' devices and GPU probabilities, with the record's prediction counts and
/// probabilities.
data::DevmapPredictions predictFold(const DeepTuneModel& model, const FoldData& data,
                                    FoldTraining& record) {
  std::vector<std::string> devices;
  const auto predicted = model.predict(data.test);
  for (size_t i = 0; i < predicted.size(); ++i) {
    const int label = predicted[i][1] > predicted[i][0] ? 1 : 0;
    devices.push_back(data.info.labels[label]);
    record.predictedGpu += devices.back() == "GPU";
    record.testCorrect += label == data.test[i].label;
    record.testGpuProbability.push_back(predicted[i][1]);
  }
  return {devices,
          std::vector<double>(record.testGpuProbability.begin(), record.testGpuProbability.end())};
}

/// The trained network's language-model states (and token counts) of every training and test row,
/// for the heads fitted on them.
void keepStates(const DeepTuneModel& model, const std::vector<Example>& allTrain,
                const FoldData& data, bool tokenCountsToo, FoldTraining& record) {
  record.trainStates = model.languageModelStates(allTrain);
  record.testStates = model.languageModelStates(data.test);
  if (!tokenCountsToo) return;
  const size_t vocabularySize = data.info.vocabulary.size();
  for (const Example& example : allTrain) {
    record.trainTokenCounts.push_back(tokenCounts(example.tokens, vocabularySize));
  }
  for (const Example& example : data.test) {
    record.testTokenCounts.push_back(tokenCounts(example.tokens, vocabularySize));
  }
}

}  // namespace

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
  sharedInfo.lstmSize = options.lstmSize;
  return [allRows, examples, sharedInfo, vocabulary, options, progress, done](
             const std::vector<size_t>& trainRows, const std::vector<size_t>& testRows, int fold) {
    FoldData data =
        foldData(*allRows, *examples, sharedInfo, vocabulary, options, trainRows, testRows, fold);
    TrainOptions trainOptions = options.train;
    trainOptions.seed = options.train.seed + static_cast<uint64_t>(fold);
    // The states are kept for every training row, held out for validation or not.
    const std::vector<Example> allTrain = options.keepStates ? data.train : std::vector<Example>{};
    trainOptions.validation = holdOutSources(data.train, options.earlyStopping, trainOptions.seed);
    DeepTuneModel model = startingModel(options, data.info, trainOptions.seed);
    FoldTraining record;
    if (options.pretrainEpochs > 0) {
      // Every training source (validation ones included) and the extra sources.
      for (const Example& example : data.train) data.pretrainSequences.insert(example.tokens);
      for (const Example& example : trainOptions.validation) {
        data.pretrainSequences.insert(example.tokens);
      }
      PretrainOptions pretrain;
      pretrain.epochs = options.pretrainEpochs;
      pretrain.seed = trainOptions.seed;
      pretrain.lstmThreads = trainOptions.lstmThreads;
      record.pretrainCurve =
          model.pretrainLanguageModel(std::vector<std::vector<int>>(data.pretrainSequences.begin(),
                                                                    data.pretrainSequences.end()),
                                      pretrain);
    }
    record.seed = trainOptions.seed;
    record.fold = fold;
    record.training = model.train(data.train, trainOptions, [&](const EpochProgress& epoch) {
      if (progress) progress(fold, epoch);
    });
    data::DevmapPredictions predicted = predictFold(model, data, record);
    record.testRowIndices = testRows;
    record.vocabularySize = data.info.vocabulary.size();
    if (options.keepStates) {
      record.trainRowIndices = trainRows;
      keepStates(model, allTrain, data, options.keepTokenCounts, record);
    }
    record.testRows = data.test.size();
    if (done) done(record);
    return predicted;
  };
}

}  // namespace deeptune::model
