// DeepTune model: parameter count, learning, determinism, padding invariance, model files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>

#include "baselines/fixed_factor.hpp"
#include "data/checksum.hpp"
#include "data/csv_reader.hpp"
#include "data/datasets.hpp"
#include "model/coarsening_data.hpp"
#include "model/deeptune_model.hpp"
#include "model/devmap_data.hpp"
#include "model/model_error.hpp"
#include "tests/cli_runner.hpp"
#include "tests/paper_rows.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

namespace {

using deeptune::model::DeepTuneModel;
using deeptune::model::Example;
using deeptune::model::ModelError;
using deeptune::model::TrainOptions;

const std::vector<deeptune::data::DevmapRow>& amdRows() { return deeptune::test::amdPaperRows(); }

deeptune::tokenizer::Vocabulary paperVocabulary() {
  return deeptune::tokenizer::Vocabulary::load(deeptune::test::paperDataDir() + "/vocab-128.json");
}

/// A small, fast training set: the rows of the first `sources` distinct kernels, short sequences.
std::vector<Example> smallExamples(size_t sources, int maxLength) {
  std::vector<deeptune::data::DevmapRow> rows;
  std::map<std::string, int> seen;
  for (const auto& row : amdRows()) {
    if (seen.count(row.src) == 0 && seen.size() == sources) continue;
    seen.emplace(row.src, 0);
    rows.push_back(row);
  }
  return deeptune::model::devmapExamples(rows, paperVocabulary(), maxLength);
}

DeepTuneModel freshModel(int maxLength, uint64_t seed = 7) {
  return DeepTuneModel(deeptune::model::devmapModelInfo(paperVocabulary(), maxLength, false), seed);
}

}  // namespace

TEST_CASE("the network has the paper's parameter count", "[model]") {
  const DeepTuneModel model = freshModel(1024);
  // Keras: Embedding 129x64 = 8256; two LSTM(64) layers 2 x 4 x (64x64 + 64x64 + 64) = 66048;
  // LM head 64x2+2 = 130; BatchNorm(66) gamma+beta = 132; Dense 66x32+32 = 2144; Dense 32x2+2 =
  // 66; total 76,776. LibTorch's LSTM keeps two bias vectors per gate (b_ih and b_hh): + 2 x 4 x
  // 64 = 512.
  CHECK(model.trainableParameters() == 76776 + 512);
  CHECK(model.bufferValues() == 132);  // BatchNorm running mean and variance (non-trainable)
}

TEST_CASE("a tiny training run learns, with each way of batching", "[model]") {
  const auto batching = GENERATE(TrainOptions::Batching::kRows, TrainOptions::Batching::kRandom,
                                 TrainOptions::Batching::kSimilarLength);
  INFO("batching " << static_cast<int>(batching));
  const std::vector<Example> examples = smallExamples(24, 128);
  size_t gpu = 0;
  for (const Example& example : examples) gpu += example.label == 1;
  const double majority = static_cast<double>(std::max(gpu, examples.size() - gpu)) /
                          static_cast<double>(examples.size());
  DeepTuneModel model = freshModel(128);
  TrainOptions options;
  options.epochs = 30;
  options.batching = batching;
  std::vector<deeptune::model::EpochProgress> epochs;
  const auto summary = model.train(examples, options, [&](const auto& p) { epochs.push_back(p); });
  REQUIRE(epochs.size() == 30);
  CHECK(epochs.back().loss < epochs.front().loss * 0.8);
  // The summary is the curve's end and its best point.
  CHECK(summary.epochs == 30);
  CHECK(summary.finalLoss == epochs.back().loss);
  CHECK(summary.finalAccuracy == epochs.back().accuracy);
  const auto best =
      std::max_element(epochs.begin(), epochs.end(),
                       [](const auto& a, const auto& b) { return a.accuracy < b.accuracy; });
  CHECK(summary.bestAccuracy == best->accuracy);
  CHECK(summary.bestEpoch == best->epoch);
  CHECK(!summary.collapsed());
  size_t correct = 0;
  const auto probabilities = model.predict(examples);
  for (size_t i = 0; i < examples.size(); ++i) {
    correct += (probabilities[i][1] > probabilities[i][0]) == (examples[i].label == 1);
  }
  CHECK(static_cast<double>(correct) / static_cast<double>(examples.size()) > majority);
}

TEST_CASE("the regret loss follows the gains, the classification loss the label", "[model]") {
  // Every example is labelled 0 but choosing label 1 gains three times as much: cross-entropy
  // learns label 0, the expected regret learns label 1.
  std::vector<Example> examples = smallExamples(12, 64);
  for (Example& example : examples) {
    example.label = 0;
    example.gains = {1.0f, 3.0f};
  }
  for (const auto loss : {TrainOptions::Loss::kClassification, TrainOptions::Loss::kRegret}) {
    DeepTuneModel model = freshModel(64);
    TrainOptions options;
    options.epochs = 20;
    options.batchSize = 4;
    options.loss = loss;
    model.train(examples, options);
    size_t first = 0;
    for (const auto& p : model.predict(examples)) first += p[0] > p[1] ? 1 : 0;
    INFO("loss " << static_cast<int>(loss));
    CHECK(first == (loss == TrainOptions::Loss::kRegret ? 0 : examples.size()));
  }
  examples.back().gains.pop_back();  // one gain short
  DeepTuneModel model = freshModel(64);
  TrainOptions options;
  options.loss = TrainOptions::Loss::kRegret;
  CHECK_THROWS_WITH(model.train(examples, options),
                    Catch::Contains("one gain per label") && Catch::Contains("has 1"));
}

TEST_CASE("a training curve collapses when it ends more than 10 points below its best", "[model]") {
  deeptune::model::TrainingSummary summary;
  for (double accuracy : {0.57, 0.82, 0.86, 0.79}) {
    summary.add({summary.epochs + 1, 4, 0.5, accuracy, 1.0});
  }
  CHECK(summary.bestEpoch == 3);
  CHECK(summary.finalAccuracy == 0.79);
  CHECK(!summary.collapsed());  // 7 points below the best
  summary.add({5, 5, 0.8, 0.62, 1.0});
  CHECK(summary.epochs == 5);
  CHECK(summary.collapsed());  // 24 points below
  deeptune::model::FoldTraining fold;
  fold.testRows = 4;
  fold.testCorrect = 3;
  CHECK(fold.testAccuracy() == 0.75);
  CHECK(fold.predictsOneDevice());  // all CPU
  fold.predictedGpu = 2;
  CHECK(!fold.predictsOneDevice());
  fold.predictedGpu = 4;
  CHECK(fold.predictsOneDevice());  // all GPU
}

TEST_CASE("a last batch of one row trains (BatchNorm needs two)", "[model]") {
  const std::vector<Example> all = smallExamples(40, 32);
  REQUIRE(all.size() >= 65);
  struct Case {
    size_t rows;
    int batchSize;
  };
  const Case cases[] = {{65, 64}, {40, 39}, {3, 2}};
  for (const Case& c : cases) {
    for (const auto batching : {TrainOptions::Batching::kRows, TrainOptions::Batching::kRandom}) {
      INFO(c.rows << " rows, batches of " << c.batchSize << ", batching "
                  << static_cast<int>(batching));
      const std::vector<Example> examples(all.begin(), all.begin() + c.rows);
      DeepTuneModel model = freshModel(32);
      TrainOptions options;
      options.epochs = 2;
      options.batchSize = c.batchSize;
      options.batching = batching;
      CHECK_NOTHROW(model.train(examples, options));
    }
  }
  DeepTuneModel model = freshModel(32);
  CHECK_THROWS_AS(model.train({all.front()}, TrainOptions()), ModelError);
}

TEST_CASE("training is deterministic for a seed", "[model]") {
  const std::vector<Example> examples = smallExamples(8, 64);
  TrainOptions options;
  options.epochs = 3;
  options.batching = GENERATE(TrainOptions::Batching::kRows, TrainOptions::Batching::kRandom);
  DeepTuneModel first = freshModel(64, 11), second = freshModel(64, 11), other = freshModel(64, 12);
  first.train(examples, options);
  second.train(examples, options);
  other.train(examples, options);
  CHECK(first.predict(examples) == second.predict(examples));
  CHECK(first.predict(examples) != other.predict(examples));
}

TEST_CASE("a kernel's prediction does not depend on its batch", "[model]") {
  // Sequences are padded to the longest in a batch; the padding must never change a result.
  const std::vector<Example> examples = smallExamples(12, 256);
  const DeepTuneModel model = freshModel(256);
  const auto together = model.predict(examples);
  for (size_t i = 0; i < examples.size(); ++i) {
    const auto alone = model.predict({examples[i]}).front();
    CHECK(alone[0] == Approx(together[i][0]).margin(1e-5));
  }
}

TEST_CASE("save -> load gives identical predictions; bad files are rejected", "[model]") {
  deeptune::test::ScratchDir dir("deeptune-model-file");
  const std::vector<Example> examples = smallExamples(6, 64);
  DeepTuneModel model = freshModel(64);
  TrainOptions options;
  options.epochs = 2;
  model.train(examples, options);
  model.info().trainingCommand = "test";
  const std::string path = (dir.path / "m.model").string();
  model.save(path);
  const DeepTuneModel loaded = DeepTuneModel::load(path);
  CHECK(loaded.predict(examples) == model.predict(examples));
  CHECK(loaded.info().vocabulary == model.info().vocabulary);
  CHECK(loaded.info().trainingCommand == "test");

  const std::string bytes = deeptune::test::readWholeFile(path);
  const auto rejects = [&](const std::string& content, const std::string& message) {
    const std::string bad = dir.file("bad.model", content);
    CHECK_THROWS_WITH(DeepTuneModel::load(bad),
                      Catch::StartsWith(bad + ": ") && Catch::Contains(message));
  };
  rejects(bytes.substr(0, bytes.size() - 100), "truncated model file (weights");
  rejects(bytes.substr(0, 40), "truncated model file (header)");
  rejects(bytes + "appended", "8 bytes after the end of the model");
  rejects("__kernel void A() {}\n", "not a deeptune model file");
  rejects("DEEPTUNE-MODEL\n{\"format_version\":1}\n", "model format version 1");
  // One flipped bit anywhere, header included, fails the checksum.
  for (size_t at : {size_t{20}, bytes.find("\"CPU\"") + 2, bytes.find("\"packed") + 2,
                    bytes.size() / 2, bytes.size() - 50}) {
    INFO("byte " << at);
    std::string flipped = bytes;
    flipped[at] ^= 0x02;
    rejects(flipped, "checksum mismatch");
  }
  // Any single flipped byte is rejected: every byte of the magic line and the JSON header, and
  // every 1021st byte of the weights, each flipped in its lowest and in its 7th bit.
  const size_t headerEnd = bytes.find("\n", bytes.find('\n') + 1) + 1;
  const std::string sweep = (dir.path / "sweep.model").string();
  int flips = 0;
  for (size_t at = 0; at < bytes.size(); at += at < headerEnd ? 1 : 1021) {
    for (int bit : {0, 6}) {
      std::string flipped = bytes;
      flipped[at] = static_cast<char>(flipped[at] ^ (1 << bit));
      std::ofstream(sweep, std::ios::binary) << flipped;
      bool rejected = false;
      try {
        DeepTuneModel::load(sweep);
      } catch (const ModelError&) {
        rejected = true;
      }
      if (!rejected) FAIL_CHECK("byte " << at << " bit " << bit << " accepted");
      ++flips;
    }
  }
  CHECK(flips > 2 * 1000);
  // Headers that pass the checksum (a crafted file) are validated too.
  const auto resealed = [](std::string file, const std::string& from, const std::string& to) {
    file.replace(file.find(from), from.size(), to);
    const std::string rest = file.substr(file.find('\n') + 1);
    const std::string version = file.substr(0, file.find(" xxh3-64="));  // "DEEPTUNE-MODEL 4"
    return version + " xxh3-64=" + deeptune::data::hex64(deeptune::data::xxh3_64(rest)) + "\n" +
           rest;
  };
  rejects(resealed(bytes, "\"task\":\"devmap\"", "\"task\":\"coarse\""),
          "do not match task 'coarse'");
  rejects(resealed(bytes, "\"CPU\"", "\"CQU\""), "labels must be CPU, GPU");
  rejects(resealed(bytes, "\"packed\"", "\"pack3d\""), "unknown padding mode 'pack3d'");
  CHECK_NOTHROW(DeepTuneModel::load(dir.file("same.model", resealed(bytes, "test", "test"))));
  CHECK_THROWS_AS(DeepTuneModel::load((dir.path / "absent.model").string()), ModelError);
}

TEST_CASE("a model of another task is refused by the device-mapping commands", "[model][cli]") {
  // The bad-input catalogue's "model of another task": a whole, valid thread-coarsening model
  // given to predict (and to validate, which predicts first) must exit 2 naming the task.
  deeptune::test::ScratchDir dir("deeptune-model-other-task");
  deeptune::model::ModelInfo info = deeptune::model::devmapModelInfo(paperVocabulary(), 64, false);
  info.task = "coarsening";
  info.auxInputs = {};
  info.labels = {"1", "2", "4", "8", "16", "32"};
  const std::string path = (dir.path / "coarsening.model").string();
  DeepTuneModel(info, 7).save(path);
  REQUIRE(DeepTuneModel::load(path).info().task == "coarsening");
  const std::string kernel =
      dir.file("k.cl", "__kernel void k(__global int* a) {\n  a[0] = 1;\n}\n");
  for (const std::string& command : {"predict '" + kernel + "' --dsize 64 --wgsize 64",
                                     "validate '" + kernel + "' --gsize 64"}) {
    const auto result = deeptune::test::runCli(command + " --model '" + path + "'");
    INFO(command << " -> " << result.err);
    CHECK(result.exitCode == 2);
    CHECK(deeptune::test::lineCount(result.err) == 1);
    CHECK_THAT(result.err, Catch::Contains("coarsening.model: a 'coarsening' model"));
  }
}

TEST_CASE("transfer learning copies the language model, and only between equal vocabularies",
          "[model][transfer]") {
  const std::vector<Example> examples = smallExamples(6, 64);
  DeepTuneModel devmap = freshModel(64, 11);
  TrainOptions options;
  options.epochs = 2;
  devmap.train(examples, options);
  std::vector<Example> plain = examples;  // a coarsening model has no aux inputs
  for (Example& example : plain) {
    example.aux.clear();
    example.label = -1;
  }
  DeepTuneModel coarsening(deeptune::model::coarseningModelInfo(paperVocabulary(), 64), 12);
  CHECK(coarsening.languageModelStates(plain) != devmap.languageModelStates(examples));
  coarsening.transferLanguageModel(devmap);
  CHECK(coarsening.languageModelStates(plain) == devmap.languageModelStates(examples));
  // The heads keep their own initialization: the outputs are the coarsening task's.
  CHECK(coarsening.predict(plain).front().size() == 6);

  const auto other = deeptune::tokenizer::Vocabulary::derive("__kernel void A() {}", "other");
  DeepTuneModel stranger(deeptune::model::coarseningModelInfo(other, 64), 13);
  CHECK_THROWS_WITH(stranger.transferLanguageModel(devmap),
                    Catch::Contains("vocabulary") && Catch::Contains("is not this model's"));
}

TEST_CASE("coarsening examples: one per kernel, labelled by its fastest measured factor",
          "[model][coarsening]") {
  const auto rows = deeptune::data::readCoarseningRuntimesCsv(deeptune::test::paperDataDir() +
                                                              "/pact-2014-runtimes.csv");
  CHECK(deeptune::data::coarseningDevices(rows) ==
        std::vector<std::string>{"Cypress", "Fermi", "Kepler", "Tahiti"});
  const auto oracles = deeptune::data::readCoarseningOraclesCsv(deeptune::test::paperDataDir() +
                                                                "/pact-2014-oracles.csv");
  for (const std::string device : {"Cypress", "Fermi", "Kepler", "Tahiti"}) {
    INFO(device);
    const auto kernels = deeptune::data::coarseningKernels(rows, device);
    CHECK(kernels.size() == 17);
    for (const auto& oracle : oracles) {  // the best factor is the oracle file's
      const auto kernel = std::find_if(kernels.begin(), kernels.end(),
                                       [&](const auto& k) { return k.kernel == oracle.kernel; });
      REQUIRE(kernel != kernels.end());
      CHECK(kernel->bestFactor == oracle.bestCf.at(device));
    }
    const auto examples = deeptune::model::coarseningExamples(kernels, paperVocabulary(), 1024);
    CHECK(examples.size() == 17);
    CHECK(examples.front().aux.empty());
  }
  CHECK_THROWS_WITH(deeptune::data::coarseningKernels(rows, "Vega"), Catch::Contains("'Vega'"));
}

TEST_CASE("cli train --task coarsening, from scratch and transferred", "[model][coarsening][cli]") {
  deeptune::test::ScratchDir dir("deeptune-train-coarsening");
  const std::string data = "'" + deeptune::test::paperDataDir() + "/pact-2014-runtimes.csv'";
  const std::string source = deeptune::test::sourceDir() + "/models/devmap-amd-deeptune.model";
  const std::string scratch = (dir.path / "scratch.model").string();
  const std::string transferred = (dir.path / "tl.model").string();
  auto result = deeptune::test::runCli("train --task coarsening --data " + data +
                                       " --platform Tahiti --method deeptune --epochs 3 -o '" +
                                       scratch + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK_THAT(result.out, Catch::Contains("trained deeptune on 17 kernels"));
  result =
      deeptune::test::runCli("train --task coarsening --data " + data +
                             " --platform Tahiti --method deeptune --epochs 3 --transfer-from '" +
                             source + "' -o '" + transferred + "'");
  REQUIRE(result.exitCode == 0);
  const DeepTuneModel model = DeepTuneModel::load(transferred);
  CHECK(model.info().task == "coarsening");
  CHECK(model.info().labels == std::vector<std::string>{"1", "2", "4", "8", "16", "32"});
  CHECK_THAT(model.info().transferredFrom, Catch::StartsWith(source + " (devmap model"));
  CHECK(DeepTuneModel::load(scratch).info().transferredFrom.empty());
  for (const char* bad :
       {"--platform Vega", "", "--platform Tahiti --vocab x.json --transfer-from m.model"}) {
    const auto refused =
        deeptune::test::runCli("train --task coarsening --data " + data + " " + bad + " -o '" +
                               (dir.path / "x.model").string() + "'");
    INFO(bad << " -> " << refused.err);
    CHECK(refused.exitCode == 2);
    CHECK(deeptune::test::lineCount(refused.err) == 1);
  }
}

TEST_CASE("cli evaluate --task coarsening: leave-one-kernel-out, same numbers for any worker count",
          "[model][coarsening][cli]") {
  deeptune::test::ScratchDir dir("deeptune-evaluate-coarsening");
  const std::string data = deeptune::test::paperDataDir();
  const std::string common = "evaluate --task coarsening --data '" + data +
                             "/pact-2014-runtimes.csv' --oracles '" + data +
                             "/pact-2014-oracles.csv' --devices Tahiti --seeds 1 --epochs 1 "
                             "--max-length 256 ";
  const std::string one = (dir.path / "one").string();
  const std::string two = (dir.path / "two").string();
  auto result = deeptune::test::runCli(common + "--workers 1 --report '" + one + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK_THAT(result.out, Catch::Contains("fixed") && Catch::Contains("magni") &&
                             Catch::Contains("deeptune-tl"));
  REQUIRE(deeptune::test::runCli(common + "--workers 2 --report '" + two + "'").exitCode == 0);
  const std::string predictions = deeptune::test::readWholeFile(one + "/predictions.csv");
  CHECK(predictions == deeptune::test::readWholeFile(two + "/predictions.csv"));
  // 17 kernels x (static, fixed, magni, deeptune, deeptune-tl), one row each plus the header.
  CHECK(deeptune::test::lineCount(predictions) == 1 + 17 * 5);
  const auto table = deeptune::data::readCsv(one + "/predictions.csv");
  const auto rows = deeptune::data::readCoarseningRuntimesCsv(data + "/pact-2014-runtimes.csv");
  const auto kernels = deeptune::data::coarseningKernels(rows, "Tahiti");
  for (const auto& row : table.rows) {  // device,method,run,kernel,factor,best,speedup,oracle
    const auto kernel = std::find_if(kernels.begin(), kernels.end(),
                                     [&](const auto& k) { return k.kernel == row[3]; });
    REQUIRE(kernel != kernels.end());
    if (row[1] == "static") CHECK(row[4] == "1");
    CHECK(std::stod(row[6]) == Approx(kernel->speedup(std::stoi(row[4]))).epsilon(1e-5));
    CHECK(std::stod(row[7]) ==
          Approx(kernel->runtimeNs.at(1) / kernel->runtimeNs.at(kernel->bestFactor)).epsilon(1e-5));
  }
  CHECK_THAT(deeptune::test::readWholeFile(one + "/summary.md"),
             Catch::Contains("| Tahiti | fixed |") &&
                 Catch::Contains("Learned methods against the fixed factor") &&
                 Catch::Contains("- Tahiti: deeptune-tl "));
  const auto bad = deeptune::test::runCli(common + "--methods magic --report '" + one + "'");
  CHECK(bad.exitCode == 2);
  CHECK_THAT(bad.err, Catch::Contains("unknown method 'magic'"));
}

TEST_CASE("coarsening speedups clip an unmeasured factor to the largest measured one below it",
          "[model][coarsening]") {
  deeptune::data::CoarseningKernel kernel;
  kernel.kernel = "k";
  kernel.runtimeNs = {{1, 100.0}, {2, 50.0}, {4, 40.0}};
  CHECK(kernel.speedup(1) == 1.0);
  CHECK(kernel.speedup(2) == 2.0);
  CHECK(kernel.speedup(32) == 2.5);  // beyond the measured ones: factor 4
  // The fixed baseline takes the factor with the best mean speedup over the training kernels.
  deeptune::data::CoarseningKernel slow = kernel;
  slow.runtimeNs = {{1, 100.0}, {2, 200.0}, {4, 400.0}, {8, 25.0}};
  CHECK(deeptune::baselines::bestFixedFactor({kernel}) == 4);
  CHECK(deeptune::baselines::bestFixedFactor({kernel, slow}) == 8);  // (2.5 + 4) / 2, the best mean
}

TEST_CASE("single-sequence inference computes what the batch path computes", "[model][inference]") {
  // Random tokens of several lengths (an empty one, one past maxLength), random sizes; before
  // and after a training epoch (BatchNorm statistics and weights change, the layout follows).
  std::mt19937 random(11);
  for (bool paperPadding : {false, true}) {
    const int maxLength = paperPadding ? 96 : 1024;
    DeepTuneModel model(
        deeptune::model::devmapModelInfo(paperVocabulary(), maxLength, paperPadding), 5);
    const auto check = [&]() {
      for (int length : {0, 1, 7, 95, 96, 500, 1024}) {
        Example example;
        for (int t = 0; t < std::min(length, maxLength); ++t) {
          example.tokens.push_back(static_cast<int>(random() % 128));
        }
        example.aux = {static_cast<float>(random() % 100000000),
                       static_cast<float>(random() % 256 + 1)};
        const std::vector<float> batch = model.predict({example}).front();
        const std::vector<float> single = model.predictOne(example);
        INFO("padding " << paperPadding << ", length " << length);
        REQUIRE(single.size() == batch.size());
        for (size_t i = 0; i < batch.size(); ++i) {
          CHECK(std::abs(single[i] - batch[i]) <= 1e-4f * std::max(1e-3f, std::abs(batch[i])));
        }
      }
    };
    check();
    TrainOptions options;
    options.epochs = 1;
    options.batchSize = 16;
    std::vector<Example> examples = smallExamples(6, maxLength);
    model.train(examples, options);
    check();
  }
}
