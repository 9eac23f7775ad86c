// Tests of the DeepTune device-mapping options the generalization experiments compare: log2
// launch inputs (kept in the model file), a vocabulary derived per fold, early stopping, mean
// pooling.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "model/devmap_data.hpp"
#include "model/devmap_deeptune.hpp"
#include "model/inference_model.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

namespace dm = deeptune::model;

namespace {

std::vector<deeptune::data::DevmapRow> firstRows(size_t count) {
  auto rows = deeptune::data::readDevmapCsv(deeptune::test::paperDataDir() + "/cgo17-nvidia.csv");
  rows.resize(count);
  return rows;
}

}  // namespace

TEST_CASE("log2 launch inputs: the network reads log2(1 + value), and the model file keeps it",
          "[model][options]") {
  dm::ModelInfo info;
  info.auxScale = "log2";
  CHECK(dm::scaledAuxInput(info, 1023.0f) == Approx(10.0f));
  CHECK(dm::scaledAuxInput(info, 0.0f) == 0.0f);
  CHECK(dm::scaledAuxInput(info, -5.0f) == 0.0f);  // nothing below 0 reaches the log
  info.auxScale = "raw";
  CHECK(dm::scaledAuxInput(info, 1023.0f) == 1023.0f);

  const auto rows = firstRows(40);
  const auto vocabulary = dm::devmapVocabulary(rows, "test");
  const auto examples = dm::devmapExamples(rows, vocabulary, 32);
  dm::TrainOptions options;
  options.epochs = 2;
  dm::ModelInfo logInfo = dm::devmapModelInfo(vocabulary, 32, false);
  logInfo.auxScale = "log2";
  dm::DeepTuneModel logModel(logInfo, 5);
  logModel.train(examples, options);

  deeptune::test::ScratchDir dir("deeptune-aux-scale");
  const std::string path = (dir.path / "log2.model").string();
  logModel.save(path);
  const dm::DeepTuneModel loaded = dm::DeepTuneModel::load(path);
  CHECK(loaded.info().auxScale == "log2");
  const dm::InferenceModel inference = dm::InferenceModel::load(path);
  CHECK(inference.info().auxScale == "log2");
  const auto batch = logModel.predict(examples);
  for (size_t i = 0; i < examples.size(); ++i) {
    INFO("example " << i);
    CHECK(inference.predict(examples[i])[1] == Approx(batch[i][1]).margin(1e-5));
    CHECK(logModel.predictOne(examples[i])[1] == Approx(batch[i][1]).margin(1e-5));
  }

  // The same weights read as raw inputs predict something else: the scale is really applied.
  const std::string rawPath = (dir.path / "raw.model").string();
  dm::DeepTuneModel relabelled = dm::DeepTuneModel::load(path);
  relabelled.info().auxScale = "raw";
  relabelled.save(rawPath);
  const dm::InferenceModel raw = dm::InferenceModel::load(rawPath);
  double difference = 0;
  for (const auto& example : examples) {
    difference += std::abs(raw.predict(example)[1] - inference.predict(example)[1]);
  }
  CHECK(difference > 1e-3);
  // Files without a scale are the paper's raw inputs (the bundled models were such files until
  // issue 28).
  CHECK(raw.info().auxScale == "raw");
}

TEST_CASE("a vocabulary per fold sees the training sources only", "[model][options]") {
  auto rows = firstRows(12);
  for (size_t i = 8; i < rows.size(); ++i) rows[i].src += "\n@`$";  // characters only in test
  const std::vector<size_t> train = {0, 1, 2, 3, 4, 5, 6, 7}, test = {8, 9, 10, 11};
  const auto whole = dm::devmapVocabulary(rows, "whole");
  std::vector<deeptune::data::DevmapRow> trainRows(rows.begin(), rows.begin() + 8);
  const auto trainOnly = dm::devmapVocabulary(trainRows, "train");
  REQUIRE(trainOnly.tokens().size() < whole.tokens().size());

  for (bool perFold : {false, true}) {
    dm::DeepTuneMethodOptions options;
    options.train.epochs = 1;
    options.maxLength = 32;
    options.vocabularyPerFold = perFold;
    size_t seenVocabulary = 0;
    const auto predictor = dm::deeptunePredictor(
        rows, whole, options, {},
        [&](const dm::FoldTraining& record) { seenVocabulary = record.vocabularySize; });
    const auto predicted = predictor(train, test, 0);
    INFO("per fold: " << perFold);
    REQUIRE(predicted.devices.size() == test.size());
    REQUIRE(predicted.gpuProbability.size() == test.size());  // the network's softmax
    for (size_t t = 0; t < test.size(); ++t) {
      CHECK(predicted.devices[t] == (predicted.gpuProbability[t] > 0.5 ? "GPU" : "CPU"));
    }
    CHECK(seenVocabulary == (perFold ? trainOnly.tokens().size() : whole.tokens().size()));
  }
}

TEST_CASE("early stopping: whole sources held out, and the best validation epoch's weights kept",
          "[model][options]") {
  const auto rows = firstRows(60);
  const auto vocabulary = dm::devmapVocabulary(rows, "test");
  const auto examples = dm::devmapExamples(rows, vocabulary, 32);
  std::set<std::vector<int>> sources;
  for (const auto& example : examples) sources.insert(example.tokens);
  REQUIRE(sources.size() >= 8);

  auto train = examples;
  const auto validation = dm::holdOutSources(train, 0.25, 7);
  CHECK(train.size() + validation.size() == examples.size());
  std::set<std::vector<int>> trainSources, validationSources;
  for (const auto& example : train) trainSources.insert(example.tokens);
  for (const auto& example : validation) validationSources.insert(example.tokens);
  CHECK(validationSources.size() ==
        static_cast<size_t>(std::lround(0.25 * static_cast<double>(sources.size()))));
  for (const auto& source : validationSources) CHECK(trainSources.count(source) == 0);
  auto again = examples;
  CHECK(dm::holdOutSources(again, 0.25, 7).size() == validation.size());
  CHECK(again.size() == train.size());
  auto untouched = examples;
  CHECK(dm::holdOutSources(untouched, 0, 7).empty());
  CHECK(untouched.size() == examples.size());

  dm::TrainOptions options;
  options.epochs = 6;
  options.validation = validation;
  dm::DeepTuneModel model(dm::devmapModelInfo(vocabulary, 32, false), 3);
  std::vector<double> curve;
  const auto summary = model.train(train, options, [&](const dm::EpochProgress& epoch) {
    curve.push_back(epoch.validationAccuracy);
  });
  REQUIRE(curve.size() == 6);
  const auto best = std::max_element(curve.begin(), curve.end());
  CHECK(summary.keptEpoch == 1 + (best - curve.begin()));  // the first best epoch
  CHECK(summary.keptValidationAccuracy == *best);
  // The model ends with that epoch's weights: it scores exactly that on the validation rows.
  const auto predicted = model.predict(validation);
  size_t right = 0;
  for (size_t i = 0; i < validation.size(); ++i) {
    right += (predicted[i][1] > predicted[i][0] ? 1 : 0) == validation[i].label;
  }
  CHECK(static_cast<double>(right) / static_cast<double>(validation.size()) == *best);

  // Without a validation set nothing is kept and the curve says so.
  dm::TrainOptions plain;
  plain.epochs = 1;
  dm::DeepTuneModel other(dm::devmapModelInfo(vocabulary, 32, false), 3);
  double reported = 0;
  const auto plainSummary = other.train(
      train, plain, [&](const dm::EpochProgress& e) { reported = e.validationAccuracy; });
  CHECK(reported == -1);
  CHECK(plainSummary.keptEpoch == 0);
}

TEST_CASE("mean pooling: through the model file and both prediction paths", "[model][options]") {
  const auto rows = firstRows(40);
  const auto vocabulary = dm::devmapVocabulary(rows, "test");
  const auto examples = dm::devmapExamples(rows, vocabulary, 32);
  dm::TrainOptions options;
  options.epochs = 2;
  dm::ModelInfo info = dm::devmapModelInfo(vocabulary, 32, false);
  info.pooling = "mean";
  dm::DeepTuneModel model(info, 5);
  model.train(examples, options);

  deeptune::test::ScratchDir dir("deeptune-pooling");
  const std::string path = (dir.path / "mean.model").string();
  model.save(path);
  CHECK(dm::DeepTuneModel::load(path).info().pooling == "mean");
  const dm::InferenceModel inference = dm::InferenceModel::load(path);
  const auto batch = model.predict(examples);
  const auto states = model.languageModelStates(examples);
  for (size_t i = 0; i < examples.size(); ++i) {
    INFO("example " << i);
    CHECK(inference.predict(examples[i])[1] == Approx(batch[i][1]).margin(1e-5));
    CHECK(model.predictOne(examples[i])[1] == Approx(batch[i][1]).margin(1e-5));
  }

  // The same weights reading the last state give other states and predictions: the mean is
  // really taken, on every path.
  dm::DeepTuneModel last = dm::DeepTuneModel::load(path);
  last.info().pooling = "last";
  const std::string lastPath = (dir.path / "last.model").string();
  last.save(lastPath);
  const dm::DeepTuneModel lastLoaded = dm::DeepTuneModel::load(lastPath);
  const dm::InferenceModel lastInference = dm::InferenceModel::load(lastPath);
  CHECK(lastLoaded.info().pooling == "last");
  const auto lastStates = lastLoaded.languageModelStates(examples);
  double stateDifference = 0, predictionDifference = 0;
  for (size_t i = 0; i < examples.size(); ++i) {
    for (size_t k = 0; k < states[i].size(); ++k) {
      stateDifference += std::abs(states[i][k] - lastStates[i][k]);
    }
    predictionDifference +=
        std::abs(lastInference.predict(examples[i])[1] - inference.predict(examples[i])[1]);
  }
  CHECK(stateDifference > 1e-2);
  CHECK(predictionDifference > 1e-3);

  // An unknown pooling in a file is refused when loading.
  dm::DeepTuneModel bad = dm::DeepTuneModel::load(path);
  bad.info().pooling = "max";
  const std::string badPath = (dir.path / "bad.model").string();
  bad.save(badPath);
  CHECK_THROWS_WITH(dm::DeepTuneModel::load(badPath), Catch::Contains("unknown pooling 'max'"));
}

TEST_CASE("next-token pretraining lowers its loss, repeats for a seed, and checks its input",
          "[model][options]") {
  const auto rows = firstRows(60);
  const auto vocabulary = dm::devmapVocabulary(rows, "test");
  const auto examples = dm::devmapExamples(rows, vocabulary, 64);
  std::set<std::vector<int>> distinct;
  for (const auto& example : examples) distinct.insert(example.tokens);
  const std::vector<std::vector<int>> sources(distinct.begin(), distinct.end());
  const auto info = dm::devmapModelInfo(vocabulary, 64, false);
  dm::PretrainOptions options;
  options.epochs = 8;

  dm::DeepTuneModel model(info, 3);
  const auto before = model.languageModelStates(examples);
  const std::vector<double> curve = model.pretrainLanguageModel(sources, options);
  REQUIRE(curve.size() == 8);
  // From about log(vocabulary) (uniform guessing) to clearly better.
  CHECK(curve.front() < std::log(static_cast<double>(vocabulary.tokens().size())) + 0.5);
  CHECK(curve.back() < 0.8 * curve.front());
  CHECK(model.languageModelStates(examples) != before);  // the language model learned
  dm::DeepTuneModel again(info, 3);
  CHECK(again.pretrainLanguageModel(sources, options) == curve);

  CHECK_THROWS_WITH(model.pretrainLanguageModel({{1}, {}}, options),
                    Catch::Contains("at least 2 tokens"));
  const int outside = static_cast<int>(vocabulary.tokens().size());
  CHECK_THROWS_WITH(model.pretrainLanguageModel({{1, outside}}, options),
                    Catch::Contains("outside"));
}
