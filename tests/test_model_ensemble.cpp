// Model file format 5: several networks in one file, each with a boosted-tree head or none;
// prediction averages them, the head reads the pooled state the batch path computes.
#include <torch/torch.h>
// LibTorch's logging brings glog's CHECK; the tests mean Catch's.
#undef CHECK
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "data/checksum.hpp"
#include "data/datasets.hpp"
#include "model/devmap_data.hpp"
#include "model/inference_model.hpp"
#include "model/model_error.hpp"
#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

namespace {

using deeptune::model::BoostedTreeHead;
using deeptune::model::DeepTuneModel;
using deeptune::model::Example;
using deeptune::model::InferenceModel;

/// A mean-pooled log2 devmap network (seed `seed`, one epoch on the AMD data's first 24 rows).
DeepTuneModel meanPooledNetwork(uint64_t seed, const std::vector<Example>& examples) {
  const auto vocabulary =
      deeptune::tokenizer::Vocabulary::load(deeptune::test::paperDataDir() + "/vocab-128.json");
  deeptune::model::ModelInfo info = deeptune::model::devmapModelInfo(vocabulary, 128, false);
  info.pooling = "mean";
  info.auxScale = "log2";
  DeepTuneModel network(info, seed);
  deeptune::model::TrainOptions options;
  options.epochs = 1;
  options.batchSize = 8;
  options.seed = seed;
  network.train(examples, options);
  return network;
}

std::vector<Example> firstExamples() {
  const auto vocabulary =
      deeptune::tokenizer::Vocabulary::load(deeptune::test::paperDataDir() + "/vocab-128.json");
  auto rows = deeptune::data::readDevmapCsv(deeptune::test::paperDataDir() + "/cgo17-amd.csv");
  rows.resize(24);
  return deeptune::model::devmapExamples(rows, vocabulary, 128);
}

/// One tree on feature `feature` at `threshold`: margin -2 below, +2 from it on.
BoostedTreeHead stump(int feature, float threshold) {
  BoostedTreeHead head;
  head.features = 64 + 2;  // the LSTM's state and the two launch inputs
  head.trees = {{{feature, threshold, 1, 2, true}, {-1, -2.0f}, {-1, 2.0f}}};
  return head;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

/// `path`'s header changed by `edit` and sealed again with a valid checksum.
void editHeader(const std::string& path, const std::function<void(nlohmann::json&)>& edit) {
  const std::string bytes = deeptune::test::readWholeFile(path);
  const size_t magicEnd = bytes.find('\n');
  const size_t headerEnd = bytes.find('\n', magicEnd + 1);
  nlohmann::json header =
      nlohmann::json::parse(bytes.substr(magicEnd + 1, headerEnd - magicEnd - 1));
  edit(header);
  const std::string rest = header.dump() + bytes.substr(headerEnd);
  std::ofstream(path, std::ios::binary)
      << "DEEPTUNE-MODEL 5 xxh3-64=" << deeptune::data::hex64(deeptune::data::xxh3_64(rest)) << "\n"
      << rest;
}

}  // namespace

TEST_CASE("an ensemble file averages its networks, each through its head or its own output",
          "[model][inference]") {
  deeptune::test::ScratchDir dir("deeptune-model-ensemble");
  const std::vector<Example> examples = firstExamples();
  const DeepTuneModel first = meanPooledNetwork(3, examples);
  const DeepTuneModel second = meanPooledNetwork(1003, examples);
  // The second network's head splits on state value 5 at the median of the batch path's states,
  // so that the head's answer shows which state the single-sequence path pooled.
  const std::vector<std::vector<float>> states = second.languageModelStates(examples);
  std::vector<float> values;
  for (const auto& state : states) values.push_back(state.at(5));
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  REQUIRE(values.size() >= 2);  // rows of one source share their state
  const size_t middle = values.size() / 2;
  const float median = (values[middle - 1] + values[middle]) / 2;  // between two sources' states
  const std::string path = (dir.path / "ensemble.model").string();
  DeepTuneModel::saveEnsemble(path, {&first, &second}, {std::nullopt, stump(5, median)});
  REQUIRE(deeptune::test::readWholeFile(path).rfind("DEEPTUNE-MODEL 5 xxh3-64=", 0) == 0);

  const InferenceModel ensemble = InferenceModel::load(path);
  CHECK(ensemble.info().networks == 2);
  CHECK(ensemble.info().boostedHeads);
  size_t checked = 0;
  for (size_t i = 0; i < examples.size(); ++i) {
    const float state = states[i].at(5);
    if (std::abs(state - median) < 1e-4f) continue;  // too close to call across the two paths
    const double head = sigmoid(state < median ? -2.0 : 2.0);
    const std::vector<float> network = first.predictOne(examples[i]);
    const std::vector<float> mean = ensemble.predict(examples[i]);
    REQUIRE(mean.size() == 2);
    CHECK(mean[1] == Approx((network[1] + head) / 2).margin(1e-6));
    CHECK(mean[0] + mean[1] == Approx(1.0f));
    ++checked;
  }
  CHECK(checked >= examples.size() - 2);
  // The training side reads the first network alone, and says what the file holds.
  const DeepTuneModel loaded = DeepTuneModel::load(path);
  CHECK(loaded.predict(examples) == first.predict(examples));
  CHECK(loaded.info().networks == 2);
  // One network without a head is still written as version 4.
  const std::string single = (dir.path / "single.model").string();
  DeepTuneModel::saveEnsemble(single, {&first}, {});
  CHECK(deeptune::test::readWholeFile(single).rfind("DEEPTUNE-MODEL 4 ", 0) == 0);
  CHECK(InferenceModel::load(single).predict(examples[0]) == first.predictOne(examples[0]));
}

TEST_CASE("a head may read the token counts between the state and the launch inputs",
          "[model][inference]") {
  deeptune::test::ScratchDir dir("deeptune-model-counts");
  const std::vector<Example> examples = firstExamples();
  const DeepTuneModel network = meanPooledNetwork(3, examples);
  const size_t vocabulary = network.info().vocabulary.size();
  // A stump on the count of the most frequent token of the first example, at the middle of its
  // distinct counts over the examples.
  const std::vector<float> firstCounts =
      deeptune::model::tokenCounts(examples[0].tokens, vocabulary);
  const int token = static_cast<int>(std::max_element(firstCounts.begin(), firstCounts.end()) -
                                     firstCounts.begin());
  std::vector<float> counts;
  for (const Example& example : examples) {
    counts.push_back(deeptune::model::tokenCounts(example.tokens, vocabulary)[token]);
  }
  std::vector<float> distinct = counts;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  REQUIRE(distinct.size() >= 2);
  const float threshold = (distinct[distinct.size() / 2 - 1] + distinct[distinct.size() / 2]) / 2;
  BoostedTreeHead head = stump(64 + token, threshold);
  head.features = static_cast<int>(64 + vocabulary + 2);
  head.tokenCounts = true;
  const std::string path = (dir.path / "counts.model").string();
  DeepTuneModel::saveEnsemble(path, {&network}, {head});
  const InferenceModel model = InferenceModel::load(path);
  for (size_t i = 0; i < examples.size(); ++i) {
    CHECK(model.predict(examples[i])[1] ==
          Approx(sigmoid(counts[i] < threshold ? -2.0 : 2.0)).margin(1e-6));
  }
  CHECK_THAT(deeptune::test::readWholeFile(path),
             Catch::Contains("\"inputs\":\"state+token-counts\""));
  // The same trees without the counts in its rows do not fit the network.
  editHeader(path, [](nlohmann::json& h) { h["heads"][0].erase("inputs"); });
  CHECK_THROWS_WITH(InferenceModel::load(path), Catch::Contains("0 token counts"));
}

TEST_CASE("an ensemble file whose heads or networks do not fit is refused, naming it",
          "[model][inference]") {
  deeptune::test::ScratchDir dir("deeptune-model-ensemble-bad");
  const std::vector<Example> examples = firstExamples();
  const DeepTuneModel network = meanPooledNetwork(3, examples);
  const std::string good = (dir.path / "good.model").string();
  DeepTuneModel::saveEnsemble(good, {&network, &network}, {stump(64, 10.0f), stump(65, 6.0f)});
  REQUIRE_NOTHROW(InferenceModel::load(good));
  const auto refused = [&](const std::string& name,
                           const std::function<void(nlohmann::json&)>& edit,
                           const std::string& why) {
    const std::string path = (dir.path / name).string();
    std::filesystem::copy_file(good, path);
    editHeader(path, edit);
    INFO(name);
    CHECK_THROWS_WITH(InferenceModel::load(path),
                      Catch::StartsWith(path + ": ") && Catch::Contains(why));
    CHECK_THROWS_WITH(DeepTuneModel::load(path), Catch::StartsWith(path + ": "));
  };
  refused(
      "wide.model", [](nlohmann::json& h) { h["heads"][1]["trees"][0]["feature"][0] = 70; },
      "network 2's head");
  refused(
      "narrow.model", [](nlohmann::json& h) { h["heads"][0]["features"] = 10; },
      "network 1's head");
  refused(
      "heads.model", [](nlohmann::json& h) { h["heads"].erase(1); },
      "one head (or null) per network");
  refused(
      "count.model",
      [](nlohmann::json& h) {
        h["weights"]["networks"] = 3;
        h["heads"].push_back(nullptr);
      },
      "do not fit the declared network");
  refused(
      "none.model", [](nlohmann::json& h) { h["weights"]["networks"] = 0; }, "0 networks");
  refused(
      "kind.model", [](nlohmann::json& h) { h["heads"][0]["kind"] = "forest"; },
      "unknown head kind");
  // Nor is a head that does not read the network written.
  const std::string out = (dir.path / "out.model").string();
  CHECK_THROWS_WITH(DeepTuneModel::saveEnsemble(out, {&network}, {stump(70, 1.0f)}),
                    Catch::Contains("split on feature 70"));
  CHECK_FALSE(std::filesystem::exists(out));
}
