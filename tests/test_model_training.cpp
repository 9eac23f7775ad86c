// Tests of training a model file (training/model_training.hpp): the request's checks, a scratch
// ensemble with boosted-tree heads that saves and predicts, fine-tuning, coarsening.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "data/coarsening_kernels.hpp"
#include "data/datasets.hpp"
#include "model/devmap_data.hpp"
#include "model/inference_model.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"
#include "training/model_training.hpp"
#include "training/training_error.hpp"

using namespace deeptune;
using Catch::Matchers::Contains;

namespace {

/// A small, fast device-mapping request: 60 paper rows, short sequences, 2 epochs.
training::TrainRequest smallDevmapRequest() {
  training::TrainRequest request;
  request.method = "deeptune";
  auto rows = data::readDevmapCsv(test::paperDataDir() + "/cgo17-amd.csv");
  rows.resize(60);
  request.devmapRows = rows;
  request.dataName = "cgo17-amd.csv (60 rows)";
  request.maxLength = 64;
  request.train.epochs = 2;
  request.train.batchSize = 16;
  request.train.seed = 5;
  request.command = "test";
  return request;
}

}  // namespace

TEST_CASE("model training: a request out of range is refused before any training", "[training]") {
  training::TrainRequest request = smallDevmapRequest();
  request.networks = 65;
  CHECK_THROWS_WITH(training::checkTrainRequest(request), "train: --networks must be 1 to 64");
  request = smallDevmapRequest();
  request.task = "tiling";
  CHECK_THROWS_AS(training::trainModel(request), training::TrainingError);
  request = smallDevmapRequest();
  request.task = "coarsening";
  request.boostedHead = true;
  CHECK_THROWS_WITH(training::checkTrainRequest(request), Contains("--boosted-head is for devmap"));
  request = smallDevmapRequest();
  request.fromPath = "a.model";
  request.transferPath = "b.model";  // two starts
  CHECK_THROWS_WITH(training::checkTrainRequest(request), Contains("drop --transfer-from"));
  request = smallDevmapRequest();
  request.train.frozenEpochs = 3;  // nothing to freeze without a starting model
  CHECK_THROWS_AS(training::checkTrainRequest(request), training::TrainingError);
}

TEST_CASE("model training: an ensemble with boosted-tree heads saves and predicts", "[training]") {
  training::TrainRequest request = smallDevmapRequest();
  request.networks = 2;
  request.boostedHead = true;
  int epochs = 0, done = 0;
  training::TrainProgress progress;
  progress.epoch = [&](int, const model::EpochProgress&) { ++epochs; };
  progress.networkDone = [&](int n, const model::TrainingSummary&) { CHECK(n == done++); };
  const training::TrainedModel trained = training::trainModel(request, progress);
  CHECK(epochs == 4);
  CHECK(done == 2);
  CHECK(trained.examples == 60);
  REQUIRE(trained.networks.size() == 2);
  REQUIRE(trained.heads.size() == 2);
  CHECK(trained.heads[0].has_value());
  CHECK(trained.networks[0].info().trainingRows == 60);
  CHECK(trained.networks[0].info().trainingCommand == "test");

  const test::ScratchDir dir("deeptune-model-training");
  const std::string path = (dir.path / "ensemble.model").string();
  trained.save(path);
  const model::InferenceModel loaded = model::InferenceModel::load(path);
  const auto examples = model::devmapExamples(
      request.devmapRows, tokenizer::Vocabulary(loaded.info().vocabulary, "x"), request.maxLength);
  const std::vector<float> p = loaded.predict(examples.front());
  REQUIRE(p.size() == 2);
  CHECK(p[0] + p[1] == Approx(1.0f));

  // Fine-tuning starts from the saved model's first network and keeps its shape.
  CHECK(training::loadDevmapStartingModel(path).model.info().maxLength == 64);
  training::TrainRequest fineTune = smallDevmapRequest();
  fineTune.maxLength = 1024;  // taken from the model, not from here
  fineTune.fromPath = path;
  fineTune.train.epochs = 1;
  const training::TrainedModel tuned = training::trainModel(fineTune);
  CHECK(tuned.networks.front().info().maxLength == 64);
  CHECK_THAT(tuned.networks.front().info().transferredFrom, Contains("fine-tuned whole"));
}

TEST_CASE("model training: a coarsening model from one device's kernels", "[training]") {
  const std::string runtimes = test::paperDataDir() + "/pact-2014-runtimes.csv";
  CHECK_THROWS_WITH(training::coarseningTrainingKernels(runtimes, "Vega"),
                    Contains("no runtimes of 'Vega'") && Contains("Tahiti"));
  training::TrainRequest request;
  request.task = "coarsening";
  request.method = "deeptune";
  request.platform = "Tahiti";
  request.kernels = training::coarseningTrainingKernels(runtimes, "Tahiti");
  request.dataName = "pact-2014-runtimes.csv";
  request.maxLength = 64;
  request.train.epochs = 1;
  const training::TrainedModel trained = training::trainModel(request);
  CHECK(trained.examples == request.kernels.size());
  CHECK(trained.heads.empty());
  CHECK(trained.networks.front().info().task == "coarsening");
  CHECK_THROWS_AS(training::loadDevmapStartingModel(test::paperDataDir() + "/no-such.model"),
                  std::exception);
}

TEST_CASE("model training: the progress lines of a training", "[training]") {
  model::EpochProgress p;
  p.epoch = 7;
  p.epochs = 50;
  p.loss = 0.48213;
  p.accuracy = 0.8125;
  p.seconds = 2;
  CHECK(training::trainingEpochLine(0, 1, p) ==
        "epoch 7/50  loss 0.4821  accuracy 0.812  2.0s  ETA 1m26s");
  CHECK(training::trainingEpochLine(1, 3, p) ==
        "network 2/3  epoch 7/50  loss 0.4821  accuracy 0.812  2.0s  ETA 3m06s");
  model::TrainingSummary summary;
  summary.bestAccuracy = 0.9;
  summary.finalAccuracy = 0.5;
  CHECK(
      training::collapseWarning(0, 2, summary) ==
      "warning: network 1/2  training collapsed: accuracy ended 40.0 points below its best epoch");
  summary.finalAccuracy = 0.89;
  CHECK(training::collapseWarning(0, 1, summary).empty());
}
