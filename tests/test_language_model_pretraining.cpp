// Tests of pretraining the language model once (training/language_model_pretraining.hpp): the
// held-out split, the excluded sources, the model file, and fine-tuning from it.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "model/devmap_data.hpp"
#include "model/inference_model.hpp"
#include "model/model_error.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"
#include "training/language_model_pretraining.hpp"
#include "training/model_training.hpp"
#include "training/training_error.hpp"

using namespace deeptune;
using Catch::Matchers::Contains;

namespace {

/// 40 distinct paper sources as a corpus, the first 5 of them also excluded (as labelled).
training::PretrainRequest smallRequest(const std::string& output) {
  training::PretrainRequest request;
  std::set<std::string> distinct;
  for (const data::DevmapRow& row : data::readDevmapCsv(test::paperDataDir() + "/cgo17-amd.csv")) {
    if (distinct.size() < 40 && distinct.insert(row.src).second) request.sources.push_back(row.src);
  }
  request.excluded.assign(request.sources.begin(), request.sources.begin() + 5);
  request.excluded.front() += "\n\n";  // layout does not hide a labelled source
  request.heldOutShare = 0.25;
  request.maxLength = 64;
  request.lstmSize = 32;  // not the paper's 64: the size travels with the file
  request.options.epochs = 2;
  request.options.batchSize = 8;
  request.outputPath = output;
  request.command = "test";
  request.dataName = "test corpus";
  return request;
}

}  // namespace

TEST_CASE("pretraining: once on a corpus, held out by text, written as a language model",
          "[training]") {
  const test::ScratchDir dir("deeptune-pretraining");
  const std::string path = (dir.path / "lm.model").string();
  training::PretrainRequest request = smallRequest(path);
  int epochs = 0;
  const training::PretrainResult result = training::pretrainLanguageModel(
      request, [&](int epoch, double, double, double) { CHECK(epoch == ++epochs); });
  CHECK(epochs == 2);
  CHECK(result.excludedSources == 5);
  CHECK(result.heldOutSources > 0);
  CHECK(result.trainingSources + result.heldOutSources == 35);
  REQUIRE(result.heldOutLoss.size() == 2);
  CHECK(std::isfinite(result.heldOutLoss[1]));
  CHECK(result.heldOutLoss[1] > 0);
  CHECK_THAT(training::pretrainCurveCsv(result), Contains("epoch,train_loss,held_out_loss\n1,"));

  // The held-out sources are chosen by their text, not by the seed.
  request.options.seed = 99;
  request.outputPath = (dir.path / "other.model").string();
  CHECK(training::pretrainLanguageModel(request).heldOutSources == result.heldOutSources);

  // A language model loads as a network to fine-tune, never as a predictor.
  const training::StartingModel start = training::loadDevmapStartingModel(path);
  CHECK(start.model.info().method == "language-model");
  CHECK(start.model.info().vocabulary.size() == result.vocabulary);
  CHECK_THROWS_WITH(model::InferenceModel::load(path), Contains("train --from"));

  // Fine-tuning from it: its embedding, LSTM and vocabulary; the shape the request asks for.
  training::TrainRequest fineTune;
  fineTune.method = "deeptune";
  auto rows = data::readDevmapCsv(test::paperDataDir() + "/cgo17-nvidia.csv");
  rows.resize(40);
  fineTune.devmapRows = rows;
  fineTune.dataName = "cgo17-nvidia.csv (40 rows)";
  fineTune.maxLength = 32;
  fineTune.auxScale = "log2";
  fineTune.pooling = "mean";
  fineTune.train.epochs = 1;
  fineTune.fromPath = path;
  fineTune.command = "test";
  const training::TrainedModel tuned = training::trainModel(fineTune);
  const model::ModelInfo& info = tuned.networks.front().info();
  INFO(info.transferredFrom);
  CHECK(info.method == "deeptune");
  CHECK(info.vocabulary == start.model.info().vocabulary);
  CHECK(info.auxScale == "log2");
  CHECK(info.pooling == "mean");
  CHECK(info.maxLength == 32);
  CHECK(info.lstmSize == 32);
  CHECK_THAT(info.transferredFrom, Contains(path));
  const std::string tunedPath = (dir.path / "tuned.model").string();
  tuned.save(tunedPath);
  const model::InferenceModel loaded = model::InferenceModel::load(tunedPath);
  CHECK(loaded.info().lstmSize == 32);
  const std::vector<float> p = loaded.predict(model::devmapExamples(
      rows, tokenizer::Vocabulary(loaded.info().vocabulary, "x"), info.maxLength)[0]);
  REQUIRE(p.size() == 2);
  CHECK(p[0] + p[1] == Approx(1.0f));
}

TEST_CASE("pretraining: a request out of range is refused", "[training]") {
  training::PretrainRequest request = smallRequest("unused.model");
  request.heldOutShare = 0.6;
  CHECK_THROWS_AS(training::checkPretrainRequest(request), training::TrainingError);
  request = smallRequest("unused.model");
  request.lstmSize = 48;
  CHECK_THROWS_WITH(training::checkPretrainRequest(request), Contains("multiple of 32"));
  request = smallRequest("unused.model");
  request.sources.clear();
  CHECK_THROWS_WITH(training::checkPretrainRequest(request), Contains("no source"));
  request = smallRequest("unused.model");
  request.excluded = request.sources;  // everything is labelled
  CHECK_THROWS_AS(training::pretrainLanguageModel(request), training::TrainingError);
}
