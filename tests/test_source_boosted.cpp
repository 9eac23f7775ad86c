// Tests of issue 41: the predictors without a network (source-boosted and fixed-factor model
// files, training and cross-validation as one code path), validation carved from training, and
// what each coarsening variant's training sees.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "data/coarsening_kernels.hpp"
#include "data/datasets.hpp"
#include "evaluation/protocol.hpp"
#include "model/coarsening_data.hpp"
#include "model/deeptune_model.hpp"
#include "model/inference_model.hpp"
#include "model/model_error.hpp"
#include "model/source_features.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"
#include "tokenizer/kernel_inputs.hpp"
#include "training/coarsening_evaluation.hpp"
#include "training/model_training.hpp"
#include "training/training_error.hpp"
#include "training/validation_scores.hpp"

using namespace deeptune;
using Catch::Matchers::Contains;

namespace {

std::vector<data::DevmapRow> amdRows() {
  return data::readDevmapCsv(test::paperDataDir() + "/cgo17-amd.csv");
}

/// What `predict` gives for `row` with `model`: the kernel's inputs as the predictor computes them.
std::string predictedDevice(const model::InferenceModel& model, const data::DevmapRow& row) {
  const tokenizer::Vocabulary vocabulary(model.info().vocabulary, "the model");
  const tokenizer::KernelInputs inputs =
      tokenizer::kernelInputs(vocabulary, row.src, static_cast<size_t>(model.info().maxLength),
                              "test row", model.readsStaticCounts());
  model::Example example;
  example.tokens = inputs.tokens;
  example.staticCounts = inputs.staticCounts;
  example.aux = {static_cast<float>(row.transfer), static_cast<float>(row.wgsize)};
  const std::vector<float> p = model.predict(example);
  return p[1] > p[0] ? "GPU" : "CPU";
}

}  // namespace

TEST_CASE("source features: the parts named, their width and values", "[source-boosted]") {
  const model::SourceFeatureSet all = model::parseSourceFeatureSet("ratios,tokens,counts");
  CHECK(model::sourceFeatureSetName(all) == "tokens,counts,ratios");
  CHECK(model::sourceFeatureWidth(all, 10, 2) == 10 + 6 + 4 + 2);
  CHECK_THROWS_WITH(model::parseSourceFeatureSet("tokens,lines"), Contains("'lines'"));
  CHECK_THROWS_AS(model::parseSourceFeatureSet(""), model::ModelError);
  // comp 6, rational 0, mem 2, localmem 1, coalesced 1, atomic 0; 1024 bytes, wgsize 64.
  const std::vector<float> row =
      model::sourceFeatureRow(all, {0, 3, 3, 12}, 10, {6, 0, 2, 1, 1, 0}, {1024, 64});
  REQUIRE(row.size() == 22);
  CHECK(row[0] == 1);  // token 0 once, token 3 twice, 12 outside the vocabulary
  CHECK(row[3] == 2);
  float tokens = 0;
  for (size_t i = 0; i < 10; ++i) tokens += row[i];
  CHECK(tokens == 3);
  CHECK(row[10] == 6);  // comp, then rational, mem, localmem, coalesced, atomic
  CHECK(row[13] == 1);
  CHECK(row[16] == Approx(10 - std::log2(9.0)));  // log2 transfer - log2(1 + comp + mem)
  CHECK(row[17] == Approx(0.5));                  // coalesced / mem
  CHECK(row[18] == Approx(32));                   // localmem / mem * wgsize
  CHECK(row[19] == Approx(3));                    // comp / mem
  CHECK(row[20] == 10);
  CHECK(row[21] == 6);
  CHECK_THROWS_WITH(model::sourceFeatureRow(all, {}, 10, {}, {1, 1}), Contains("static counts"));
}

TEST_CASE("source-boosted: train's model file predicts what evaluate's fold model predicts",
          "[source-boosted]") {
  // One code path: evaluate --methods shipped trains each fold with the function train calls,
  // and predicts each test row through the model a file would hold.
  const std::vector<data::DevmapRow> rows = amdRows();
  std::vector<size_t> train, test;
  for (size_t i = 0; i < rows.size(); ++i) (i % 3 == 0 ? test : train).push_back(i);
  training::TrainRequest request;
  for (size_t i : train) request.devmapRows.push_back(rows[i]);
  request.dataName = "two thirds of cgo17-amd.csv";
  request.command = "test";
  const training::TrainedModel trained = training::trainModel(request);
  CHECK(trained.method == "source-boosted");
  CHECK(trained.networks.empty());
  test::ScratchDir dir("deeptune-source-boosted");
  const std::string path = (dir.path / "m.model").string();
  trained.save(path);
  const model::InferenceModel loaded = model::InferenceModel::load(path);
  CHECK(loaded.info().method == "source-boosted");
  const training::TrainRequest defaults;
  CHECK(loaded.info().sourceFeatures ==
        model::sourceFeatureViewsName(defaults.sourceBoosted.views));
  CHECK(loaded.info().networks == 0);
  CHECK(loaded.readsStaticCounts());
  const std::vector<std::string> folded =
      training::shippedDevmapPredictor(rows)(train, test, 0).devices;
  REQUIRE(folded.size() == test.size());
  size_t same = 0, gpu = 0;
  for (size_t t = 0; t < test.size(); ++t) {
    same += predictedDevice(loaded, rows[test[t]]) == folded[t] ? 1 : 0;
    gpu += folded[t] == "GPU" ? 1 : 0;
  }
  CHECK(same == test.size());
  CHECK(gpu > 0);  // it decides, not a constant
  CHECK(gpu < test.size());
  CHECK_THROWS_WITH(model::DeepTuneModel::load(path), Contains("not a DeepTune network"));
  // A predictor is written in its version from the start: upgrade-model writes nothing.
  const std::string upgraded = (dir.path / "upgraded.model").string();
  const model::ModelUpgrade upgrade = model::upgradeModelFile(path, upgraded);
  CHECK(upgrade.fromVersion == 8);  // calibrated, with its training programs
  CHECK(upgrade.toVersion == 8);
  CHECK_FALSE(upgrade.written);
  CHECK_FALSE(std::filesystem::exists(upgraded));
}

TEST_CASE("source-boosted: a file whose trees do not fit its features is refused",
          "[source-boosted]") {
  const std::vector<data::DevmapRow> rows = amdRows();
  training::TrainRequest request;
  request.devmapRows.assign(rows.begin(), rows.begin() + 60);
  const training::TrainedModel trained = training::trainModel(request);
  model::ModelInfo narrower = trained.predictorInfo;
  narrower.sourceFeatures = "tokens";  // the trees read other columns than these rows have
  test::ScratchDir dir("deeptune-source-boosted-bad");
  CHECK_THROWS_WITH(
      model::savePredictorFile((dir.path / "m.model").string(), narrower, trained.forest),
      Contains("a boosted-tree model over 8 features, its rows (tokens) have"));
  model::ModelInfo noForest = trained.predictorInfo;
  CHECK_THROWS_WITH(model::savePredictorFile((dir.path / "n.model").string(), noForest, {}),
                    Contains("1 to 64 boosted-tree models"));
  request.train.epochs = 3;  // a network's option, for a method without one
  CHECK_THROWS_WITH(training::checkTrainRequest(request), Contains("trains no network"));
  training::TrainRequest unknown;
  unknown.method = "lstm";
  CHECK_THROWS_WITH(training::checkTrainRequest(unknown), Contains("unknown --method 'lstm'"));
}

TEST_CASE("fixed-factor: the coarsening default chooses the training kernels' best factor",
          "[source-boosted][coarsening]") {
  training::TrainRequest request;
  request.task = "coarsening";
  request.platform = "Tahiti";
  request.kernels = training::coarseningTrainingKernels(
      test::paperDataDir() + "/pact-2014-runtimes.csv", "Tahiti");
  const training::TrainedModel trained = training::trainModel(request);
  CHECK(trained.method == "fixed-factor");
  test::ScratchDir dir("deeptune-fixed-factor");
  const std::string path = (dir.path / "m.model").string();
  trained.save(path);
  const model::InferenceModel loaded = model::InferenceModel::load(path);
  const std::vector<float> p = loaded.predict(model::Example{});
  const int best = training::fixedFactorOf(request.kernels);
  const auto chosen = std::max_element(p.begin(), p.end()) - p.begin();
  CHECK(loaded.info().labels.at(static_cast<size_t>(chosen)) == std::to_string(best));
  CHECK(*std::max_element(p.begin(), p.end()) == 1.0f);
}

TEST_CASE("validation scores never train on nor score an outer test row", "[source-boosted]") {
  const std::vector<data::DevmapRow> rows = amdRows();
  const evaluation::Protocol protocol = evaluation::devmapProtocol("kernel", rows, "", 204);
  std::set<size_t> seenTest;
  std::vector<std::vector<size_t>> touchedByFold(static_cast<size_t>(protocol.folds));
  const data::DevmapPredictor recorder = [&](const std::vector<size_t>& train,
                                             const std::vector<size_t>& test, int fold) {
    auto& touched = touchedByFold.at(static_cast<size_t>(fold));
    touched.insert(touched.end(), train.begin(), train.end());
    touched.insert(touched.end(), test.begin(), test.end());
    std::set<std::string> trainSources;
    for (size_t i : train) trainSources.insert(rows[i].src);
    for (size_t i : test) CHECK(trainSources.count(rows[i].src) == 0);  // grouped by source
    return std::vector<std::string>(test.size(), "GPU");
  };
  const auto scores =
      training::validationScores(rows, protocol, {{"recorder", recorder}}, 204, /*workers=*/1);
  REQUIRE(scores.size() == 1);
  size_t predictions = 0;
  for (int fold = 0; fold < protocol.folds; ++fold) {
    const auto outerTest = protocol.rowsOf(fold).test;
    for (size_t i : touchedByFold[static_cast<size_t>(fold)]) {
      CHECK(!std::binary_search(outerTest.begin(), outerTest.end(), i));
    }
    predictions += rows.size() - outerTest.size();
  }
  CHECK(scores.front().predictions == predictions);  // every training row predicted once a fold
  size_t gpuRows = 0;
  for (const auto& row : rows) gpuRows += row.oracle == "GPU" ? 1 : 0;
  // Always "GPU": the accuracy is the GPU share of the rows, counted once per fold they train in.
  CHECK(scores.front().accuracy == Approx(static_cast<double>(gpuRows) / rows.size()).margin(0.02));
}

TEST_CASE("source-boosted: views of different features, each with its own models, averaged",
          "[source-boosted]") {
  const std::vector<data::DevmapRow> rows = amdRows();
  const training::SourceBoostedOptions options =
      training::sourceBoostedOptions("counts+tokens", "models=2,rounds=10", "none", "test");
  REQUIRE(options.views.size() == 2);
  std::vector<size_t> train(120);
  for (size_t i = 0; i < train.size(); ++i) train[i] = i;
  const auto vocabulary = tokenizer::Vocabulary::load(test::paperDataDir() + "/vocab-128.json");
  training::SourceBoostedModel fitted =
      training::fitSourceBoosted(rows, train, vocabulary, options);
  CHECK(fitted.info.sourceFeatures == "counts+tokens");
  REQUIRE(fitted.forest.size() == 4);  // models x views, member m reads view m % 2
  CHECK(fitted.forest[0].features == 8);
  CHECK(fitted.forest[1].features == static_cast<int>(vocabulary.size()) + 2);
  test::ScratchDir dir("deeptune-source-boosted-views");
  const std::string path = (dir.path / "m.model").string();
  model::savePredictorFile(path, fitted.info, fitted.forest);
  const model::InferenceModel loaded = model::InferenceModel::load(path);
  const model::InferenceModel inMemory =
      model::InferenceModel::ofPredictor(fitted.info, fitted.forest);
  for (size_t i = 200; i < 260; ++i)
    CHECK(predictedDevice(loaded, rows[i]) == predictedDevice(inMemory, rows[i]));
  CHECK(loaded.readsStaticCounts());
  model::ModelInfo tokensOnly = fitted.info;
  tokensOnly.sourceFeatures = "tokens";  // the predictor then computes no static counts
  CHECK_FALSE(model::InferenceModel::ofPredictor(tokensOnly, {}).readsStaticCounts());
  fitted.forest.pop_back();
  CHECK_THROWS_WITH(model::savePredictorFile(path, fitted.info, fitted.forest),
                    Contains("3 boosted-tree models for 2 feature sets"));
  CHECK_THROWS_WITH(training::sourceBoostedOptions("counts+", "", "none", "train"),
                    Contains("train: --source-features"));
  CHECK_THROWS_WITH(training::sourceBoostedOptions("counts", "depth=0", "none", "evaluate"),
                    Contains("evaluate: --boosted-trees: 'depth=0'"));
  for (const char* bad : {"seed=1e300", "seed=-1", "rounds=nan", "rounds=2.5", "eta=2", "x=1"}) {
    CHECK_THROWS_AS(training::sourceBoostedOptions("counts", bad, "none", "train"),
                    training::TrainingError);
  }
  CHECK(training::sourceBoostedOptions("counts", "seed=7,rounds=80", "none", "train").trees.seed ==
        7);
}

TEST_CASE("coarsening: no variant's training sees the kernel it predicts", "[coarsening]") {
  // Issue 41: per device, one network over the devices, the fallback's inner folds; deeptune's
  // vocabulary is its training kernels' own (it held the held-out kernel's tokens before).
  const std::string runtimes = test::paperDataDir() + "/pact-2014-runtimes.csv";
  std::vector<std::vector<data::CoarseningKernel>> kernels;
  for (const char* device : {"Tahiti", "Fermi"}) {
    auto all = training::coarseningTrainingKernels(runtimes, device);
    all.resize(5);
    kernels.push_back(all);
  }
  const std::vector<std::string> devices = {"Tahiti", "Fermi"};
  const tokenizer::Vocabulary every = model::coarseningVocabulary(kernels.front(), "every kernel");
  const model::DeepTuneModel source(model::coarseningModelInfo(every, 24), 3);
  for (const bool shared : {false, true}) {
    training::CoarseningEvaluationOptions options;
    options.methods = {"deeptune", "deeptune-tl"};
    options.runs = 1;
    options.train.epochs = 1;
    options.maxLength = 24;
    options.transferSource = &source;
    options.sharedDevices = shared;
    options.fallbackFolds = 2;
    size_t seen = 0, narrower = 0;
    options.trainingSeen = [&](const training::CoarseningTrainingSeen& training) {
      ++seen;
      INFO("shared " << shared << ", transfer " << training.transfer);
      REQUIRE(!training.predicted.empty());
      for (const std::string& kernel : training.predicted) {
        CHECK(std::find(training.kernels.begin(), training.kernels.end(), kernel) ==
              training.kernels.end());
      }
      if (training.transfer) {
        CHECK(training.vocabulary == source.info().vocabulary);
        return;
      }
      std::vector<data::CoarseningKernel> trained;
      for (const auto& kernel : kernels.front()) {
        if (std::find(training.kernels.begin(), training.kernels.end(), kernel.kernel) !=
            training.kernels.end()) {
          trained.push_back(kernel);
        }
      }
      const auto own = model::coarseningVocabulary(trained, "its kernels").tokens();
      CHECK(training.vocabulary == own);
      narrower += own.size() < every.size() ? 1 : 0;
    };
    training::evaluateCoarsening(devices, kernels, every, options);
    // Outer trainings (5 kernels x methods x devices, or shared) and 2 inner folds for each.
    CHECK(seen == (shared ? 5u : 10u) * 2 * 3);
    CHECK(narrower > 0);  // some held-out kernel has tokens no other kernel has
  }
}
