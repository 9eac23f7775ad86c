// Model file versions: version 3 read without LibTorch predicts as the trained model; version 2
// (a LibTorch archive) still loads for training and converts with `deeptune upgrade-model`.
#include <torch/torch.h>
// LibTorch's logging brings glog's CHECK; the tests mean Catch's.
#undef CHECK
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "data/checksum.hpp"
#include "data/csv_reader.hpp"
#include "data/datasets.hpp"
#include "model/devmap_data.hpp"
#include "model/inference_model.hpp"
#include "model/internal/model_file_format.hpp"
#include "model/internal/model_state.hpp"
#include "model/model_error.hpp"
#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

namespace {

using deeptune::model::DeepTuneModel;
using deeptune::model::Example;
using deeptune::model::InferenceModel;

/// A small trained model (one epoch on the first kernels of the AMD data) and those examples.
std::pair<DeepTuneModel, std::vector<Example>> smallTrainedModel() {
  const auto vocabulary =
      deeptune::tokenizer::Vocabulary::load(deeptune::test::paperDataDir() + "/vocab-128.json");
  auto rows = deeptune::data::readDevmapCsv(deeptune::test::paperDataDir() + "/cgo17-amd.csv");
  rows.resize(24);
  std::vector<Example> examples = deeptune::model::devmapExamples(rows, vocabulary, 128);
  DeepTuneModel model(deeptune::model::devmapModelInfo(vocabulary, 128, false), 3);
  deeptune::model::TrainOptions options;
  options.epochs = 1;
  options.batchSize = 8;
  model.train(examples, options);
  return {std::move(model), std::move(examples)};
}

/// The version-2 file of the model saved at `path`: the same header, its weights as the LibTorch
/// archive that version 2 stored.
std::string versionTwoOf(const std::string& path) {
  using namespace deeptune::model::internal;
  const ModelFile file = readModelFile(path);
  DeepTuneNet net(networkOptions(file.info));
  loadNetworkTensors(*net, file.tensors);
  std::ostringstream archive;
  {
    torch::serialize::OutputArchive out;
    net->save(out);
    out.save_to(archive);
  }
  const std::string bytes = deeptune::test::readWholeFile(path);
  const size_t headerStart = bytes.find('\n') + 1;
  nlohmann::json header =
      nlohmann::json::parse(bytes.substr(headerStart, bytes.find('\n', headerStart) - headerStart));
  header["format_version"] = 2;
  header["weights"] = {{"bytes", archive.str().size()}};
  const std::string rest = header.dump() + "\n" + archive.str();
  return "DEEPTUNE-MODEL 2 fnv1a64=" + deeptune::data::hex64(deeptune::data::fnv1a64(rest)) + "\n" +
         rest;
}

}  // namespace

TEST_CASE("a version-3 model file predicts without LibTorch as the trained model does",
          "[model][inference]") {
  deeptune::test::ScratchDir dir("deeptune-model-versions");
  auto [model, examples] = smallTrainedModel();
  const std::string path = (dir.path / "m.model").string();
  model.save(path);
  REQUIRE(deeptune::test::readWholeFile(path).rfind("DEEPTUNE-MODEL 3 ", 0) == 0);
  const InferenceModel loaded = InferenceModel::load(path);
  CHECK(loaded.info().vocabulary == model.info().vocabulary);
  CHECK(loaded.info().labels == model.info().labels);
  for (const Example& example : examples) {
    CHECK(loaded.predict(example) == model.predictOne(example));  // the same tensors, bit for bit
  }
  // DeepTuneModel reads it back to the same network (the batch path, exactly).
  CHECK(DeepTuneModel::load(path).predict(examples) == model.predict(examples));
  Example bad = examples.front();
  bad.tokens.push_back(4096);
  CHECK_THROWS_WITH(loaded.predict(bad), Catch::Contains("outside the vocabulary"));
}

TEST_CASE("a version-2 model file trains on, and upgrade-model converts it", "[model][cli]") {
  deeptune::test::ScratchDir dir("deeptune-model-v2");
  auto [model, examples] = smallTrainedModel();
  const std::string current = (dir.path / "current.model").string();
  model.save(current);
  const std::string old = dir.file("old.model", versionTwoOf(current));

  CHECK(DeepTuneModel::load(old).predict(examples) == model.predict(examples));
  CHECK_THROWS_WITH(InferenceModel::load(old),
                    Catch::StartsWith(old + ": model format version 2") &&
                        Catch::Contains("deeptune upgrade-model"));

  const std::string upgraded = (dir.path / "upgraded.model").string();
  const auto result = deeptune::test::runCli("upgrade-model '" + old + "' -o '" + upgraded + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  const InferenceModel loaded = InferenceModel::load(upgraded);
  for (const Example& example : examples) {
    CHECK(loaded.predict(example) == model.predictOne(example));
  }
}
