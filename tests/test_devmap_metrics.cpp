// Tests of the device-mapping metrics: a hand-computed example, the paper anchors and fold joins.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "baselines/baseline_error.hpp"
#include "baselines/static_mapping.hpp"
#include "data/datasets.hpp"
#include "evaluation/cross_validation.hpp"
#include "evaluation/devmap_metrics.hpp"
#include "evaluation/evaluation_error.hpp"
#include "evaluation/protocol.hpp"
#include "model/model_error.hpp"
#include "tests/test_paths.hpp"

namespace dm = deeptune::model;
namespace ev = deeptune::evaluation;
namespace bl = deeptune::baselines;
namespace dd = deeptune::data;

namespace {

dd::DevmapRow makeRow(int index, const std::string& benchmark, const std::string& dataset,
                      const std::string& oracle, double cpu, double gpu) {
  dd::DevmapRow row{};
  row.index = index;
  row.benchmark = benchmark;
  row.dataset = dataset;
  row.oracle = oracle;
  row.runtimeCpu = cpu;
  row.runtimeGpu = gpu;
  row.mem = 1;
  return row;
}

/// Four rows in two folds; both training folds' majority is GPU (fold 1's is a 1:1 tie).
std::vector<dd::DevmapRow> smallRows() {
  return {makeRow(0, "shoc-1.1.5-A-k", "d1", "GPU", 4, 1),
          makeRow(1, "shoc-1.1.5-A-k", "d2", "CPU", 1, 2),
          makeRow(2, "npb-3.3-BT-k1", "S", "GPU", 3, 1),
          makeRow(3, "npb-3.3-BT-k2", "S", "GPU", 2, 1)};
}
const std::vector<int> kSmallFolds = {0, 0, 1, 1};

struct Paper {
  std::vector<dd::DevmapRow> rows;
  std::vector<int> folds;
};

Paper paper(const std::string& platform) {
  const std::string dir = deeptune::test::paperDataDir();
  Paper p;
  p.rows = dd::readDevmapCsv(dir + "/cgo17-" + platform + ".csv");
  p.folds = ev::foldOfRows(p.rows, dd::readFoldsCsv(dir + "/folds-" + platform + ".csv"));
  return p;
}

}  // namespace

TEST_CASE("metrics: hand-computed example", "[metrics]") {
  const auto rows = smallRows();
  CHECK(ev::staticDevices(rows, kSmallFolds) == std::vector<std::string>(4, "GPU"));

  const ev::MethodPredictions method{"m", {"CPU", "CPU", "GPU", "CPU"}};
  const auto scores = ev::scoreMethods(rows, kSmallFolds, {method});
  REQUIRE(scores.size() == 1);
  const ev::DevmapScores& all = scores[0].overall;
  // Speedups runtime(GPU)/runtime(pred): 1/4, 2/1, 1/1, 1/2; the oracle's: 1, 2, 1, 1.
  CHECK(all.rows == 4);
  CHECK(all.accuracy == 0.5);
  CHECK(all.speedupMean == Approx(0.9375));
  CHECK(all.speedupGeomean == Approx(std::pow(0.25, 0.25)));
  CHECK(all.oracleSpeedupMean == Approx(1.25));
  CHECK(all.oraclePercent == Approx(75.0));

  REQUIRE(scores[0].suites.size() == 2);
  CHECK(scores[0].suites[0].suite == "NPB");
  CHECK(scores[0].suites[0].scores.rows == 2);
  CHECK(scores[0].suites[0].scores.accuracy == 0.5);
  CHECK(scores[0].suites[0].scores.speedupMean == Approx(0.75));
  CHECK(scores[0].suites[0].scores.oracleSpeedupMean == Approx(1.0));
  CHECK(scores[0].suites[1].suite == "SHOC");
  CHECK(scores[0].suites[1].scores.speedupMean == Approx(1.125));
  CHECK(scores[0].suites[1].scores.oraclePercent == Approx(75.0));

  const auto perBenchmark = ev::speedupPerBenchmark(rows, kSmallFolds, {method});
  REQUIRE(perBenchmark.size() == 3);
  CHECK(perBenchmark[0].benchmark == "npb-3.3-BT-k1");
  CHECK(perBenchmark[0].methods[0] == Approx(1.0));
  CHECK(perBenchmark[1].methods[0] == Approx(0.5));
  CHECK(perBenchmark[2].benchmark == "shoc-1.1.5-A-k");
  CHECK(perBenchmark[2].suite == "SHOC");
  CHECK(perBenchmark[2].datasets == 2);
  CHECK(perBenchmark[2].methods[0] == Approx(1.125));
  CHECK(perBenchmark[2].oracle == Approx(1.5));
}

TEST_CASE("metrics: the suite mean weighs every suite the same", "[metrics]") {
  ev::MethodScores method;
  CHECK(ev::suiteMeanAccuracy(method) == 0);
  method.overall.accuracy = (0.9 * 500 + 0.5 * 10) / 510;
  method.suites = {{"NPB", {}}, {"SHOC", {}}};
  method.suites[0].scores.rows = 500;
  method.suites[0].scores.accuracy = 0.9;
  method.suites[1].scores.rows = 10;
  method.suites[1].scores.accuracy = 0.5;
  CHECK(ev::suiteMeanAccuracy(method) == Approx(0.7));  // not the rows' 0.892
}

TEST_CASE("metrics: mean and spread of repeated runs", "[metrics]") {
  const auto spread = ev::spreadOf({0.80, 0.86, 0.83});
  CHECK(spread.mean == Approx(0.83));
  CHECK(spread.sd == Approx(0.03));  // sample standard deviation (n - 1)
  CHECK(spread.min == 0.80);
  CHECK(spread.max == 0.86);
  CHECK(ev::spreadOf({2.0}).sd == 0.0);

  const auto rows = smallRows();
  const std::vector<ev::MethodPredictions> methods = {{"static", {"GPU", "GPU", "GPU", "GPU"}},
                                                      {"m-s1", {"CPU", "CPU", "GPU", "CPU"}, "m"},
                                                      {"m-s2", {"GPU", "GPU", "GPU", "GPU"}, "m"}};
  const auto scores = ev::scoreMethods(rows, kSmallFolds, methods);
  const auto groups = ev::repeatedScores(methods, scores);
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].group == "static");
  CHECK(groups[0].runs == std::vector<std::string>{"static"});
  CHECK(groups[1].group == "m");
  CHECK(groups[1].runs == std::vector<std::string>{"m-s1", "m-s2"});
  CHECK(groups[1].accuracy.mean ==
        Approx((scores[1].overall.accuracy + scores[2].overall.accuracy) / 2));
  CHECK(groups[1].accuracy.min == std::min(scores[1].overall.accuracy, scores[2].overall.accuracy));
  CHECK(groups[1].speedupMean.max ==
        std::max(scores[1].overall.speedupMean, scores[2].overall.speedupMean));
  CHECK(groups[1].oraclePercent.sd > 0);
  CHECK_THROWS_AS(ev::repeatedScores(methods, {scores[0]}), ev::EvaluationError);
}

TEST_CASE("metrics: static mapping and oracle", "[metrics]") {
  auto rows = smallRows();
  const auto statics =
      ev::crossValidate(rows.size(), kSmallFolds, bl::staticMappingPredictor(rows)).devices;
  CHECK(statics == ev::staticDevices(rows, kSmallFolds));
  const auto scores = ev::scoreMethods(rows, kSmallFolds,
                                       {{"static", statics}, {"oracle", ev::oracleDevices(rows)}});
  CHECK(scores[0].overall.speedupMean == 1.0);
  CHECK(scores[0].overall.speedupGeomean == 1.0);
  CHECK(scores[1].overall.accuracy == 1.0);
  CHECK(scores[1].overall.oraclePercent == Approx(100.0));
  CHECK(bl::majorityDevice(rows, {0, 1}) == "GPU");  // tie
  CHECK(bl::majorityDevice(rows, {1}) == "CPU");
  CHECK_THROWS_AS(bl::majorityDevice(rows, {}), bl::BaselineError);
  CHECK(bl::majorityOfCounts(2, 4) == "GPU");  // the one rule both use: ties go to the GPU
  CHECK(bl::majorityOfCounts(1, 3) == "CPU");
  CHECK_THROWS_AS(bl::majorityOfCounts(0, 0), bl::BaselineError);

  rows.push_back(makeRow(4, "not a suite name", "x", "CPU", 1, 1));
  CHECK(ev::suiteOf(rows.back()) == "other");
  CHECK_THROWS_AS(ev::runtimeOn(rows[0], "FPGA"), ev::EvaluationError);
  CHECK_THROWS_AS(ev::staticDevices(rows, {0, 0, 0, 0, 0}),
                  ev::EvaluationError);  // no training rows
  CHECK_THROWS_AS(ev::scoreMethods(rows, {0, 0, 1, 1, 1}, {{"short", {"CPU"}}}),
                  ev::EvaluationError);
}

TEST_CASE("metrics: paper anchors (oracle speedup, static accuracy)", "[metrics][paper]") {
  struct Anchor {
    const char* platform;
    double oracleSpeedup, staticAccuracy;
    const char* staticDevice;
  };
  for (const Anchor& anchor :
       {Anchor{"amd", 3.64, 58.8, "CPU"}, Anchor{"nvidia", 1.53, 56.9, "GPU"}}) {
    INFO(anchor.platform);
    const Paper p = paper(anchor.platform);
    const auto statics =
        ev::crossValidate(p.rows.size(), p.folds, bl::staticMappingPredictor(p.rows)).devices;
    CHECK(statics == std::vector<std::string>(p.rows.size(), anchor.staticDevice));
    const auto scores = ev::scoreMethods(p.rows, p.folds, {{"static", statics}});
    const ev::DevmapScores& s = scores[0].overall;
    CHECK(s.oracleSpeedupMean == Approx(anchor.oracleSpeedup).margin(0.005));
    CHECK(s.accuracy * 100 == Approx(anchor.staticAccuracy).margin(2.0));
    CHECK(s.speedupMean == 1.0);
    CHECK(s.speedupGeomean == 1.0);
    CHECK(scores[0].suites.size() == 7);
  }
}

TEST_CASE("fold join: checks every row and every folds entry", "[metrics][folds]") {
  const auto rows = smallRows();
  std::vector<dd::FoldRow> folds = {{0, "shoc-1.1.5-A-k", "d1", 3},
                                    {1, "shoc-1.1.5-A-k", "d2", 1},
                                    {3, "npb-3.3-BT-k2", "S", 0},
                                    {2, "npb-3.3-BT-k1", "S", 2}};
  CHECK(ev::foldOfRows(rows, folds) == std::vector<int>{3, 1, 2, 0});

  auto expectError = [&](std::vector<dd::FoldRow> bad, const std::string& fragment) {
    try {
      ev::foldOfRows(rows, bad);
      FAIL("no ModelError");
    } catch (const ev::EvaluationError& e) {
      CHECK_THAT(e.what(), Catch::Contains(fragment));
    }
  };
  auto wrongDataset = folds;
  wrongDataset[2].dataset = "W";
  expectError(wrongDataset, "folds row 3 (index 3)");
  auto wrongBenchmark = folds;
  wrongBenchmark[0].benchmark = "shoc-1.1.5-B-k";
  expectError(wrongBenchmark, "folds row 1 (index 0)");
  auto unknownIndex = folds;
  unknownIndex[1].index = 9;
  expectError(unknownIndex, "folds row 2 (index 9): no data row");
  auto missing = folds;
  missing.pop_back();
  expectError(missing, "no entry for data row index 2");
  auto twice = folds;
  twice.push_back(folds[0]);
  expectError(twice, "folds row 5 (index 0): index given twice");

  // The canonical folds join with their data file.
  const std::string dir = deeptune::test::paperDataDir();
  const auto amdRows = dd::readDevmapCsv(dir + "/cgo17-amd.csv");
  CHECK(ev::foldOfRows(amdRows, dd::readFoldsCsv(dir + "/folds-amd.csv")).size() == 680);
}
