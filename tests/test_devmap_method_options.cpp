// Tests of the DeepTune device-mapping options the generalization experiments compare: log2
// launch inputs (kept in the model file) and a vocabulary derived per fold.
#include <catch2/catch.hpp>

#include <cmath>
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
  // Files without a scale are the paper's raw inputs (the bundled models are such files).
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
    const auto devices = predictor(train, test, 0);
    INFO("per fold: " << perFold);
    REQUIRE(devices.size() == test.size());
    CHECK(seenVocabulary == (perFold ? trainOnly.tokens().size() : whole.tokens().size()));
  }
}
