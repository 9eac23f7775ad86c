// Model file versions: version 4 (XXH3-64) read without LibTorch predicts as the trained model;
// versions 3 (its older checksum) and 2 (a LibTorch archive) still load and convert with
// `deeptune upgrade-model`; non-finite weights are refused by every loader.
#include <torch/torch.h>
// LibTorch's logging brings glog's CHECK; the tests mean Catch's.
#undef CHECK
#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
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
#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

namespace {

using deeptune::model::DeepTuneModel;
using deeptune::model::Example;
using deeptune::model::InferenceModel;

/// A small untrained model (seed 3) and the examples of the first kernels of the AMD data.
std::pair<DeepTuneModel, std::vector<Example>> smallModel() {
  const auto vocabulary =
      deeptune::tokenizer::Vocabulary::load(deeptune::test::paperDataDir() + "/vocab-128.json");
  auto rows = deeptune::data::readDevmapCsv(deeptune::test::paperDataDir() + "/cgo17-amd.csv");
  rows.resize(8);
  return {DeepTuneModel(deeptune::model::devmapModelInfo(vocabulary, 128, false), 3),
          deeptune::model::devmapExamples(rows, vocabulary, 128)};
}

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
/// archive that version 2 stored (with one NaN weight if `nanWeight`), sealed as version 2 was.
std::string versionTwoOf(const std::string& path, bool nanWeight = false) {
  using namespace deeptune::model::internal;
  const ModelFile file = readModelFile(path);
  DeepTuneNet net(networkOptions(file.info));
  loadNetworkTensors(*net, file.members.front().tensors);
  if (nanWeight) {
    torch::NoGradGuard noGrad;
    net->named_parameters()["lstm.weight_hh_l0"].view({-1})[5] = std::nanf("");
  }
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
  return "DEEPTUNE-MODEL 2 fnv1a64=" + deeptune::data::hex64(deeptune::data::legacy64(rest)) +
         "\n" + rest;
}

/// The file after the magic line and the JSON header of a model file.
std::string weightsOf(const std::string& file) {
  return file.substr(file.find('\n', file.find('\n') + 1) + 1);
}

/// The version-4 model file `file` as a version-`version` file, its weights changed by `poke`,
/// sealed with that version's checksum as it wrote it (3: "fnv1a64=" of data::legacy64, with its
/// data fingerprint so named; 4: "xxh3-64=" of XXH3-64).
std::string resealed(const std::string& file, int version,
                     const std::function<void(std::string& weights)>& poke = {}) {
  const size_t headerStart = file.find('\n') + 1;
  nlohmann::json header =
      nlohmann::json::parse(file.substr(headerStart, file.find('\n', headerStart) - headerStart));
  header["format_version"] = version;
  std::string weights = weightsOf(file);
  if (poke) poke(weights);
  if (version == 3) header["training"]["data_fingerprint"] = "fnv1a64:0123456789abcdef";
  const std::string rest = header.dump() + "\n" + weights;
  return "DEEPTUNE-MODEL " + std::to_string(version) +
         (version == 3 ? " fnv1a64=" + deeptune::data::hex64(deeptune::data::legacy64(rest))
                       : " xxh3-64=" + deeptune::data::hex64(deeptune::data::xxh3_64(rest))) +
         "\n" + rest;
}

/// Sets float number `index` of `weights` to `value`.
void setWeight(std::string& weights, size_t index, float value) {
  std::memcpy(&weights[index * sizeof(float)], &value, sizeof value);
}

}  // namespace

TEST_CASE("a version-4 model file predicts without LibTorch as the trained model does",
          "[model][inference]") {
  deeptune::test::ScratchDir dir("deeptune-model-versions");
  auto [model, examples] = smallTrainedModel();
  const std::string path = (dir.path / "m.model").string();
  model.save(path);
  REQUIRE(deeptune::test::readWholeFile(path).rfind("DEEPTUNE-MODEL 4 xxh3-64=", 0) == 0);
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
                        Catch::Contains("this deeptune writes versions 4 to 8") &&
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

TEST_CASE("the model file's checksum is XXH3-64 of all after its first line, as xxhsum says",
          "[model][checksum]") {
  // Issue 27, 13: format 3's "fnv1a64=" was no FNV-1a (its basis lacked a digit), so no other
  // tool could verify a model file. Format 4 names XXH3-64, which `xxhsum -H3` computes.
  deeptune::test::ScratchDir dir("deeptune-model-checksum");
  auto [model, examples] = smallModel();
  const std::string path = (dir.path / "m.model").string();
  model.save(path);
  const std::string file = deeptune::test::readWholeFile(path);
  const std::string magic = file.substr(0, file.find('\n'));
  const std::string prefix = "DEEPTUNE-MODEL 4 xxh3-64=";
  REQUIRE(magic.rfind(prefix, 0) == 0);
  const std::string hex = magic.substr(prefix.size());
  CHECK(hex.size() == 16);
  CHECK(hex == deeptune::data::hex64(deeptune::data::xxh3_64(file.substr(file.find('\n') + 1))));
  // The independent check: xxHash's own command line tool (Debian package xxhash), if installed.
  if (std::system("command -v xxhsum >/dev/null 2>&1") != 0) {
    WARN("xxhsum is not installed (Debian package xxhash): its check was skipped");
    return;
  }
  FILE* pipe = ::popen(("tail -n +2 '" + path + "' | xxhsum -H3").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string printed;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) printed += buffer;
  CHECK(::pclose(pipe) == 0);
  INFO("xxhsum -H3 printed: " << printed);
  CHECK_THAT(printed, Catch::Contains(hex));
}

TEST_CASE("a version-3 model file (its older checksum) loads, and upgrade-model writes version 4",
          "[model][cli]") {
  deeptune::test::ScratchDir dir("deeptune-model-v3");
  auto [model, examples] = smallTrainedModel();
  const std::string current = (dir.path / "current.model").string();
  model.save(current);
  const std::string v3 = resealed(deeptune::test::readWholeFile(current), 3);
  REQUIRE(v3.rfind("DEEPTUNE-MODEL 3 fnv1a64=", 0) == 0);
  const std::string old = dir.file("old.model", v3);
  const InferenceModel loaded = InferenceModel::load(old);
  for (const Example& example : examples) {
    CHECK(loaded.predict(example) == model.predictOne(example));
  }
  CHECK(DeepTuneModel::load(old).predict(examples) == model.predict(examples));
  // Its fingerprints said fnv1a64 but were the older checksum: they are read under its name.
  CHECK(loaded.info().dataFingerprint == "legacy64:0123456789abcdef");
  // The older checksum is still checked.
  std::string flipped = v3;
  flipped[v3.find("\"task\"") + 2] ^= 0x01;
  CHECK_THROWS_WITH(InferenceModel::load(dir.file("flipped.model", flipped)),
                    Catch::Contains("checksum mismatch"));

  const std::string upgraded = (dir.path / "upgraded.model").string();
  const auto result = deeptune::test::runCli("upgrade-model '" + old + "' -o '" + upgraded + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK_THAT(result.out,
             Catch::Contains("(format version 4; ") && Catch::Contains(" was version 3)"));
  const std::string written = deeptune::test::readWholeFile(upgraded);
  CHECK(written.rfind("DEEPTUNE-MODEL 4 xxh3-64=", 0) == 0);
  // Issue 45: upgrading the current file again says so, names its version, writes nothing.
  const std::string secondCopy = (dir.path / "again.model").string();
  const auto alreadyCurrent =
      deeptune::test::runCli("upgrade-model '" + upgraded + "' -o '" + secondCopy + "'");
  CHECK(alreadyCurrent.exitCode == 0);
  CHECK_THAT(alreadyCurrent.out,
             Catch::Contains("is format version 4, the version this deeptune "
                             "writes for it: already current, nothing written"));
  CHECK_FALSE(std::filesystem::exists(secondCopy));
  CHECK(written.find("fnv1a64") == std::string::npos);
  CHECK(weightsOf(written) == weightsOf(v3));  // the same weights, byte for byte
  const InferenceModel again = InferenceModel::load(upgraded);
  CHECK(again.info().dataFingerprint == "legacy64:0123456789abcdef");
  for (const Example& example : examples) {
    CHECK(again.predict(example) == model.predictOne(example));
  }
}

TEST_CASE("a model whose weights are NaN or infinite is refused by every loader",
          "[model][inference][cli]") {
  // Issue 27, 10: such a file (its checksum valid) predicted "probability -nan" and validate
  // called the prediction correct.
  using namespace deeptune::model::internal;
  deeptune::test::ScratchDir dir("deeptune-model-nan");
  auto [model, examples] = smallModel();
  const std::string path = (dir.path / "m.model").string();
  model.save(path);
  const std::string file = deeptune::test::readWholeFile(path);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::string nan4 =
      dir.file("nan4.model", resealed(file, 4, [&](std::string& w) { setWeight(w, 100, nan); }));
  const std::string inf4 =
      dir.file("inf4.model", resealed(file, 4, [&](std::string& w) { setWeight(w, 1000, -inf); }));
  const std::string nan3 =
      dir.file("nan3.model", resealed(file, 3, [&](std::string& w) { setWeight(w, 7, nan); }));
  const std::string nan2 = dir.file("nan2.model", versionTwoOf(path, /*nanWeight=*/true));
  for (const auto& [bad, what] : std::vector<std::pair<std::string, std::string>>{
           {nan4, "is NaN"}, {inf4, "is infinite"}, {nan3, "is NaN"}}) {
    INFO(bad);
    CHECK_THROWS_WITH(InferenceModel::load(bad),
                      Catch::StartsWith(bad + ": weight ") && Catch::Contains(what));
    CHECK_THROWS_WITH(DeepTuneModel::load(bad),
                      Catch::StartsWith(bad + ": weight ") && Catch::Contains(what));
  }
  CHECK_THROWS_WITH(DeepTuneModel::load(nan2),
                    Catch::StartsWith(nan2 + ": weight 5 of tensor lstm.weight_hh_l0 is NaN"));
  // The CLI: one line naming the file, exit 2, for predict and validate alike.
  const std::string kernel =
      dir.file("k.cl", "__kernel void k(__global int* a) {\n  a[0] = 1;\n}\n");
  for (const std::string& command : {"predict '" + kernel + "' --dsize 64 --wgsize 64",
                                     "validate '" + kernel + "' --gsize 64"}) {
    const auto result = deeptune::test::runCli(command + " --model '" + nan4 + "'");
    INFO(command << " -> " << result.err);
    CHECK(result.exitCode == 2);
    CHECK(deeptune::test::lineCount(result.err) == 1);
    CHECK_THAT(result.err, Catch::Contains(nan4 + ": weight") && Catch::Contains("NaN"));
  }
  // Nor is such a model written.
  ModelFile good = readModelFile(path);
  good.members.front().tensors.back().values.back() = nan;
  const std::string out = (dir.path / "out.model").string();
  CHECK_THROWS_WITH(writeModelFile(out, good.info, good.members), Catch::Contains("is NaN"));
  CHECK_FALSE(std::filesystem::exists(out));
}
