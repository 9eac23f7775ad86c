// Tests of issue 44: the three calibration fits, the map they make, the expected calibration
// error, a calibrated predictor carried in its model file (format 8), and how far a kernel is
// from the programs a model was trained on.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "data/checksum.hpp"
#include "data/datasets.hpp"
#include "evaluation/calibration_metrics.hpp"
#include "evaluation/evaluation_error.hpp"
#include "model/inference_model.hpp"
#include "model/model_error.hpp"
#include "model/probability_calibration.hpp"
#include "model/training_programs.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"
#include "tokenizer/kernel_inputs.hpp"
#include "tokenizer/vocabulary.hpp"
#include "training/source_boosted.hpp"
#include "training/training_error.hpp"

using namespace deeptune;
using Catch::Matchers::Contains;

namespace {

/// An overconfident predictor's held-out answers: a row's GPU is faster with probability
/// sigmoid(x), the predictor says sigmoid(3 x).
struct Overconfident {
  std::vector<double> probabilities;
  std::vector<int> labels;
};

Overconfident overconfident(uint64_t seed, size_t n) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  Overconfident data;
  for (size_t i = 0; i < n; ++i) {
    const double x = -3 + 6 * uniform(random);
    data.labels.push_back(uniform(random) < 1 / (1 + std::exp(-x)) ? 1 : 0);
    data.probabilities.push_back(1 / (1 + std::exp(-3 * x)));
  }
  return data;
}

/// The ECE of GPU probabilities against labels, deciding GPU above 0.5.
double eceOf(const model::ProbabilityCalibration& calibration, const Overconfident& data) {
  std::vector<double> confidence;
  std::vector<bool> right;
  for (size_t i = 0; i < data.labels.size(); ++i) {
    const double q = calibration.apply(data.probabilities[i]);
    const int decided = q > 0.5 ? 1 : 0;
    confidence.push_back(decided == 1 ? q : 1 - q);
    right.push_back(decided == data.labels[i]);
  }
  return evaluation::calibrationScores(confidence, right).expectedError;
}

}  // namespace

TEST_CASE("expected calibration error: bins, weights and bad input", "[calibration]") {
  // Two bins: 0.95 right 1 of 2 (gap 0.45), 0.55 right 2 of 2 (gap 0.45): ECE 0.45.
  const auto scores =
      evaluation::calibrationScores({0.95, 0.95, 0.55, 0.55}, {true, false, true, true});
  CHECK(scores.rows == 4);
  CHECK(scores.bins.size() == evaluation::kCalibrationBins);
  CHECK(scores.bins[9].rows == 2);
  CHECK(scores.bins[5].rows == 2);
  CHECK(scores.bins[9].accuracy == Approx(0.5));
  CHECK(scores.expectedError == Approx(0.45));
  CHECK(scores.meanConfidence == Approx(0.75));
  // A probability of exactly 1 is in the last bin; the answers as sure as they are right: 0.
  CHECK(evaluation::calibrationScores({1.0, 1.0}, {true, true}).expectedError == 0);
  CHECK(evaluation::calibrationScores({}, {}).expectedError == 0);
  CHECK_THROWS_AS(evaluation::calibrationScores({0.5}, {}), evaluation::EvaluationError);
  CHECK_THROWS_AS(evaluation::calibrationScores({1.5}, {true}), evaluation::EvaluationError);
  CHECK_THROWS_AS(evaluation::calibrationScores({std::nan("")}, {true}),
                  evaluation::EvaluationError);
}

TEST_CASE("calibration: each fit brings an overconfident predictor's ECE down", "[calibration]") {
  const Overconfident fit = overconfident(1, 2000), check = overconfident(2, 2000);
  const double before = eceOf(model::ProbabilityCalibration{}, check);
  CHECK(before > 0.1);
  INFO("uncalibrated ECE " << before);
  for (const std::string method : {"platt", "temperature", "isotonic"}) {
    INFO(method);
    const auto calibration = model::fitCalibration(method, fit.probabilities, fit.labels);
    CHECK(calibration.method == method);
    CHECK_NOTHROW(model::checkCalibration(calibration));
    CHECK(eceOf(calibration, check) < 0.03);
    // Monotone: a higher probability never maps lower; no answer is certain.
    double last = -1;
    for (double p = 0; p <= 1.0; p += 0.01) {
      const double q = calibration.apply(p);
      CHECK(q >= last - 1e-12);
      CHECK(q > 0);
      CHECK(q < 1);
      last = q;
    }
  }
  // Temperature keeps every decision (no shift): sigmoid(logit(p) / T) is above 0.5 iff p is.
  const auto temperature = model::fitCalibration("temperature", fit.probabilities, fit.labels);
  CHECK(temperature.shift == 0);
  CHECK(temperature.scale < 1);  // the overconfident answers are softened
  for (double p : {0.03, 0.2, 0.49, 0.51, 0.8, 0.97}) {
    CHECK((temperature.apply(p) > 0.5) == (p > 0.5));
  }
  CHECK(model::fitCalibration("none", fit.probabilities, fit.labels).apply(0.97) == 0.97);
}

TEST_CASE("calibration: bad fits and bad maps are refused", "[calibration]") {
  CHECK_THROWS_WITH(model::fitCalibration("beta", {0.5}, {1}), Contains("'beta'"));
  CHECK_THROWS_AS(model::fitCalibration("platt", {}, {}), model::ModelError);
  CHECK_THROWS_AS(model::fitCalibration("platt", {0.5, 0.4}, {1}), model::ModelError);
  CHECK_THROWS_AS(model::fitCalibration("platt", {0.5}, {2}), model::ModelError);
  CHECK_THROWS_AS(model::fitCalibration("isotonic", {1.5}, {1}), model::ModelError);
  CHECK_THROWS_AS(model::fitCalibration("isotonic", {std::nan("")}, {1}), model::ModelError);
  // One class only: still a map, never certain.
  const auto allGpu = model::fitCalibration("platt", {0.9, 0.8, 0.7}, {1, 1, 1});
  CHECK(allGpu.apply(0.8) < 1);
  model::ProbabilityCalibration bad;
  bad.method = "platt";
  bad.scale = -1;
  CHECK_THROWS_AS(model::checkCalibration(bad), model::ModelError);
  bad.scale = std::nan("");
  CHECK_THROWS_AS(model::checkCalibration(bad), model::ModelError);
  bad = {};
  bad.method = "temperature";
  bad.shift = 0.5;
  CHECK_THROWS_AS(model::checkCalibration(bad), model::ModelError);
  bad = {};
  bad.method = "isotonic";
  bad.knots = {0.2, 0.1};
  bad.values = {0.3, 0.4};
  CHECK_THROWS_WITH(model::checkCalibration(bad), Contains("order"));
  bad.knots = {0.1, 0.2};
  bad.values = {0.4, 0.3};  // decreasing
  CHECK_THROWS_AS(model::checkCalibration(bad), model::ModelError);
  bad.values = {0.3};
  CHECK_THROWS_AS(model::checkCalibration(bad), model::ModelError);
  // apply() of a NaN or out-of-range probability stays within [0, 1].
  const auto platt = model::fitCalibration("platt", {0.9, 0.1, 0.8, 0.3}, {1, 0, 0, 0});
  for (double p : {-1.0, 2.0, std::nan("")}) {
    const double q = platt.apply(p);
    CHECK(q >= 0);
    CHECK(q <= 1);
  }
}

TEST_CASE("a calibrated source-boosted predictor: fitted on inner folds, kept in format 8",
          "[calibration][source-boosted]") {
  const auto rows = data::readDevmapCsv(test::paperDataDir() + "/cgo17-nvidia.csv");
  std::vector<size_t> train;
  for (size_t i = 0; i < rows.size(); ++i) train.push_back(i);
  std::vector<std::string_view> sources;
  for (const auto& row : rows) sources.push_back(row.src);
  const tokenizer::Vocabulary vocabulary =
      tokenizer::Vocabulary::deriveFromTexts(sources, "the data");
  training::SourceBoostedOptions options;
  options.calibration = "temperature";
  const training::SourceBoostedModel fitted =
      training::fitSourceBoosted(rows, train, vocabulary, options);
  CHECK(fitted.info.calibration.method == "temperature");
  // Held-out probabilities of unseen sources are less sure than the training fit: softened.
  CHECK(fitted.info.calibration.scale < 1);
  // Deterministic: the same inner folds and trees give the same map.
  CHECK(training::fitSourceBoosted(rows, train, vocabulary, options).info.calibration ==
        fitted.info.calibration);

  test::ScratchDir scratch("deeptune-calibrated-model");
  const std::string path = (scratch.path / "calibrated.model").string();
  model::savePredictorFile(path, fitted.info, fitted.forest);
  std::string magic;
  {
    std::ifstream in(path);
    std::getline(in, magic);
  }
  CHECK_THAT(magic, Catch::StartsWith("DEEPTUNE-MODEL 8 "));
  const model::InferenceModel loaded = model::InferenceModel::load(path);
  CHECK(loaded.info().calibration == fitted.info.calibration);
  // The file keeps the 247 distinct training programs: a training kernel is at distance 0.
  REQUIRE(loaded.info().trainingPrograms);
  CHECK(loaded.info().trainingPrograms->counts().size() == 247);
  CHECK(loaded.info().trainingPrograms->counts() == fitted.info.trainingPrograms->counts());
  // Without the calibration the same forest says something else: the file's map is applied.
  model::ModelInfo uncalibratedInfo = fitted.info;
  uncalibratedInfo.calibration = {};
  uncalibratedInfo.trainingPrograms = nullptr;
  const std::string plainPath = (scratch.path / "plain.model").string();
  model::savePredictorFile(plainPath, uncalibratedInfo, fitted.forest);
  {
    std::ifstream in(plainPath);
    std::getline(in, magic);
  }
  CHECK_THAT(magic, Catch::StartsWith("DEEPTUNE-MODEL 7 "));  // the oldest version that holds it
  const model::InferenceModel plain = model::InferenceModel::load(plainPath);
  CHECK(plain.nearestDistance({1, 2, 3}) == -1);  // a format-7 file keeps no programs
  model::Example example;
  const tokenizer::KernelInputs inputs = tokenizer::kernelInputs(
      vocabulary, rows[0].src, training::kSourceBoostedMaxLength, "row 0", true);
  example.tokens = inputs.tokens;
  example.staticCounts = inputs.staticCounts;
  example.aux = {static_cast<float>(rows[0].transfer), static_cast<float>(rows[0].wgsize)};
  const double raw = plain.predict(example)[1];
  CHECK(loaded.nearestDistance(example.tokens) == Approx(0).margin(1e-9));
  CHECK(loaded.predict(example)[1] == Approx(fitted.info.calibration.apply(raw)).margin(1e-6));
  CHECK(std::fabs(loaded.predict(example)[1] - 0.5) < std::fabs(raw - 0.5));

  // A format-8 part in an older file, or a format-8 file without one, is refused (the checksum
  // made anew, as a tool that edits the header would).
  const auto rewritten = [&](const std::string& from, const std::string& version,
                             const std::function<void(nlohmann::json&)>& edit) {
    std::ifstream in(from, std::ios::binary);
    std::string magic, header, rest;
    std::getline(in, magic);
    std::getline(in, header);
    nlohmann::json json = nlohmann::json::parse(header);
    edit(json);
    json["format_version"] = std::stoi(version);
    const std::string body = json.dump() + "\n";  // no weights
    const std::string path = (scratch.path / ("edited-" + version + ".model")).string();
    std::ofstream(path, std::ios::binary)
        << "DEEPTUNE-MODEL " << version << " xxh3-64=" << data::hex64(data::xxh3_64(body)) << "\n"
        << body;
    return path;
  };
  CHECK_THROWS_WITH(model::InferenceModel::load(
                        rewritten(plainPath, "7",
                                  [](nlohmann::json& j) {
                                    j["predictor"]["calibration"] = {
                                        {"method", "temperature"}, {"scale", 0.5}, {"shift", 0.0}};
                                  })),
                    Contains("a calibration in a format 7 file"));
  CHECK_THROWS_WITH(model::InferenceModel::load(rewritten(path, "8",
                                                          [](nlohmann::json& j) {
                                                            j["predictor"].erase("calibration");
                                                            j["predictor"].erase("programs");
                                                          })),
                    Contains("without a calibration or training programs"));
  CHECK_THROWS_WITH(
      model::InferenceModel::load(rewritten(
          path, "8", [](nlohmann::json& j) { j["predictor"]["calibration"]["scale"] = -1.0; })),
      Contains("calibration: temperature with scale"));
  CHECK_NOTHROW(model::InferenceModel::load(rewritten(path, "8", [](nlohmann::json&) {})));
  for (const nlohmann::json& bad :
       {nlohmann::json::parse("[[1.5, 2]]"), nlohmann::json::parse("[[\"a\", 1]]"),
        nlohmann::json::parse("[[-1, 1]]"), nlohmann::json::parse("[[1, 99999999999]]"),
        nlohmann::json::parse("[[1]]"), nlohmann::json::parse("[[100000, 1]]"),
        nlohmann::json::parse("[[2, 1, 1, 1]]"), nlohmann::json::parse("{}")}) {
    INFO(bad.dump());
    CHECK_THROWS_WITH(model::InferenceModel::load(rewritten(
                          path, "8", [&](nlohmann::json& j) { j["predictor"]["programs"] = bad; })),
                      Contains("training programs"));
  }

  // Calibration needs two sources or more.
  std::vector<size_t> oneSource;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].src == rows[0].src) oneSource.push_back(i);
  }
  CHECK_THROWS_WITH(training::fitSourceBoosted(rows, oneSource, vocabulary, options),
                    Contains("two sources"));
  // The option is checked where the CLI reads it.
  CHECK_THROWS_WITH(training::sourceBoostedOptions("counts", "", "beta", "train"),
                    Contains("train: --calibration"));
}

TEST_CASE("novelty: the distance to the nearest training program", "[novelty]") {
  // Vocabulary of 6 ids; two programs.
  const model::TrainingPrograms programs = model::TrainingPrograms::of({{0, 0, 1, 2}, {3, 4}}, 6);
  CHECK(programs.counts().size() == 2);
  CHECK(programs.counts()[0] == model::TrainingPrograms::Counts{{0, 2}, {1, 1}, {2, 1}});
  CHECK(programs.nearestDistance({2, 1, 0, 0}) == Approx(0).margin(1e-12));  // a program's mix
  CHECK(programs.nearestDistance({4, 3, 3, 4}) == Approx(0).margin(1e-12));  // scale-free
  CHECK(programs.nearestDistance({5, 5}) == 1);                              // nothing in common
  CHECK(programs.nearestDistance({}) == 1);
  const double partly = programs.nearestDistance({0, 5});
  CHECK(partly > 0);
  CHECK(partly < 1);
  CHECK(programs.nearestDistance({0, 5, 99, -1}) == Approx(partly));  // ids outside: ignored
  CHECK(model::TrainingPrograms().nearestDistance({0}) == -1);
  CHECK_THROWS_WITH(model::TrainingPrograms::of({{6}}, 6), Contains("outside"));
  CHECK_THROWS_AS(model::TrainingPrograms::fromCounts({{{1, 1}, {0, 1}}}, 6), model::ModelError);
  CHECK_THROWS_AS(model::TrainingPrograms::fromCounts({{{1, 0}}}, 6), model::ModelError);
}
