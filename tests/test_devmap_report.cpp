// Tests of the device-mapping report folder: files, numbers in the summary, well-formed SVG.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "baselines/grewe_tree.hpp"
#include "baselines/static_mapping.hpp"
#include "data/datasets.hpp"
#include "evaluation/cross_validation.hpp"
#include "evaluation/devmap_report.hpp"
#include "evaluation/evaluation_error.hpp"
#include "evaluation/protocol.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/svg_checks.hpp"
#include "tests/test_paths.hpp"

namespace dm = deeptune::model;
namespace ev = deeptune::evaluation;
namespace bl = deeptune::baselines;
namespace dd = deeptune::data;
namespace fs = std::filesystem;
using deeptune::test::countOf;
using deeptune::test::xmlProblem;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("report: AMD paper data, static and grewe", "[report][paper]") {
  const std::string dir = deeptune::test::paperDataDir();
  const auto rows = dd::readDevmapCsv(dir + "/cgo17-amd.csv");
  const auto folds = ev::foldOfRows(rows, dd::readFoldsCsv(dir + "/folds-amd.csv"));
  const std::vector<ev::MethodPredictions> methods = {
      {"static", ev::crossValidate(rows.size(), folds, bl::staticMappingPredictor(rows)).devices},
      {"grewe", ev::crossValidate(rows.size(), folds, bl::greweTreePredictor(rows), 2).devices}};

  deeptune::test::ScratchDir scratch("deeptune-report");
  const fs::path out = scratch.path / "nested" / "report";
  ev::writeDevmapReport(out.string(), "AMD", rows, folds, methods, {"10-fold CV, folds-amd.csv"});

  for (const char* name :
       {"summary.md", "metrics.csv", "predictions.csv", "runs.csv", "speedup_per_benchmark.csv",
        "accuracy_per_suite.svg", "speedup_per_benchmark.svg"}) {
    INFO(name);
    CHECK(fs::is_regular_file(out / name));
  }
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(out)) files += entry.is_regular_file() ? 1 : 0;
  CHECK(files == 7);  // no temporary file left behind, no training.csv without folds

  const std::string summary = slurp(out / "summary.md");
  CHECK_THAT(summary, Catch::Contains("# Device mapping: AMD"));
  CHECK_THAT(summary, Catch::Contains("10-fold CV, folds-amd.csv"));
  CHECK_THAT(summary, Catch::Contains("CPU in 10, GPU in 0 folds"));
  CHECK_THAT(summary,
             Catch::Contains("| static | 58.8% | 45.0% | 1.00\xC3\x97 | 1.00\xC3\x97 | 27.5% |"));
  CHECK_THAT(summary, Catch::Contains("| grewe | 70.3% |"));
  CHECK_THAT(summary, Catch::Contains("| oracle | 100.0% | 100.0% | 3.64\xC3\x97 |"));
  CHECK_THAT(summary, Catch::Contains("| AMD SDK |"));
  CHECK_THAT(summary, Catch::Contains("| SHOC |"));

  const std::string metrics = slurp(out / "metrics.csv");
  CHECK(metrics.rfind("method,suite,accuracy,speedup_mean,speedup_geomean,oracle_pct,rows,ece\n",
                      0) == 0);
  CHECK(deeptune::test::lineCount(metrics) == 1 + 3 * 8);  // (2 methods + oracle) × (all + 7)
  CHECK_THAT(metrics, Catch::Contains("static,all,58.8235,1.000000,1.000000,"));
  CHECK_THAT(metrics, Catch::Contains("oracle,all,100.0000,3.642212,"));

  const std::string predictions = slurp(out / "predictions.csv");
  CHECK(deeptune::test::lineCount(predictions) == 681);
  CHECK(predictions.rfind("index,benchmark,dataset,oracle,fold,static,grewe\n", 0) == 0);
  CHECK_THAT(
      predictions,
      Catch::Contains("\n0,amd-app-sdk-3.0-BinomialOption-binomial_options,default,GPU,0,CPU,"));

  const std::string perBenchmark = slurp(out / "speedup_per_benchmark.csv");
  CHECK(deeptune::test::lineCount(perBenchmark) == 1 + 256);
  CHECK(perBenchmark.rfind("benchmark,suite,datasets,static,grewe,oracle\n", 0) == 0);

  const std::string accuracy = slurp(out / "accuracy_per_suite.svg");
  CHECK(xmlProblem(accuracy).empty());
  CHECK(accuracy.rfind("<?xml", 0) == 0);
  CHECK(countOf(accuracy, "<svg ") == 1);
  CHECK(countOf(accuracy, "class=\"bar\"") == 2 * 8);  // 2 methods × (7 suites + All)
  CHECK_THAT(accuracy, Catch::Contains("grewe, All: 70.3%"));
  CHECK_THAT(accuracy, Catch::Contains(">PolyBench</text>"));

  const std::string speedup = slurp(out / "speedup_per_benchmark.svg");
  CHECK(xmlProblem(speedup).empty());
  CHECK(countOf(speedup, "class=\"marker\"") == 2 * 256);
  CHECK(countOf(speedup, "class=\"oracle\"") == 256);
  CHECK_THAT(speedup, Catch::Contains("log scale"));
}

TEST_CASE("report: bad input", "[report]") {
  dd::DevmapRow row{};
  row.index = 0;
  row.benchmark = "shoc-1.1.5-A-k";
  row.oracle = "GPU";
  row.runtimeCpu = row.runtimeGpu = 1;
  std::vector<dd::DevmapRow> rows = {row, row};
  rows[1].index = 1;
  deeptune::test::ScratchDir scratch("deeptune-report-bad");
  const std::string out = (scratch.path / "r").string();
  const std::vector<int> folds = {0, 1};
  CHECK_THROWS_AS(ev::writeDevmapReport(out, "X", rows, folds, {}), ev::EvaluationError);
  CHECK_THROWS_AS(ev::writeDevmapReport(out, "X", rows, folds, {{"oracle", {"CPU", "GPU"}}}),
                  ev::EvaluationError);
  CHECK_THROWS_AS(ev::writeDevmapReport(out, "X", rows, folds, {{"m", {"CPU"}}}),
                  ev::EvaluationError);
  CHECK_THROWS_AS(
      ev::writeDevmapReport(out, "X", rows, folds, {{"m", {"CPU", "CPU"}}, {"m", {"CPU", "GPU"}}}),
      ev::EvaluationError);
  // A file where the folder should be.
  const std::string blocker = scratch.file("blocker", "x");
  CHECK_THROWS_AS(ev::writeDevmapReport(blocker + "/r", "X", rows, folds, {{"m", {"CPU", "GPU"}}}),
                  ev::EvaluationError);
  ev::writeDevmapReport(out, "X & <Y>", rows, folds, {{"m", {"CPU", "GPU"}}});
  const std::string svg = slurp(fs::path(out) / "accuracy_per_suite.svg");
  CHECK(xmlProblem(svg).empty());
  CHECK_THAT(svg, Catch::Contains("X &amp; &lt;Y&gt;"));
}

TEST_CASE("report: context, runs of several seeds and training per fold", "[report]") {
  dd::DevmapRow row{};
  row.benchmark = "shoc-1.1.5-A-k";
  row.oracle = "GPU";
  row.runtimeCpu = 2;
  row.runtimeGpu = 1;
  std::vector<dd::DevmapRow> rows = {row, row, row, row};
  for (size_t i = 0; i < rows.size(); ++i) rows[i].index = static_cast<int>(i);
  const std::vector<int> folds = {0, 0, 1, 1};
  const std::vector<ev::MethodPredictions> methods = {
      {"static", {"GPU", "GPU", "GPU", "GPU"}},
      {"deeptune-s1", {"GPU", "CPU", "GPU", "GPU"}, "deeptune"},
      {"deeptune-s2", {"GPU", "GPU", "GPU", "GPU"}, "deeptune"}};
  ev::DevmapReportContext context;
  context.protocol = "two folds";
  context.command = "deeptune evaluate --seeds 2";
  context.settings = {"machine: test CPU, 2 cores"};
  dm::FoldTraining fold;
  fold.method = "deeptune-s1";
  fold.seed = 1;
  fold.training.add({1, 2, 0.7, 0.80, 1.0});
  fold.training.add({2, 2, 0.9, 0.55, 1.0});  // collapsed
  fold.testRows = 2;
  fold.testCorrect = 1;
  fold.predictedGpu = 1;
  dm::FoldTraining stopped = fold;  // early stopping kept its first epoch
  stopped.seed = 2;
  stopped.training.keptEpoch = 1;
  stopped.training.keptValidationAccuracy = 0.625;
  stopped.pretrainCurve = {4.5, 3.25};
  context.folds = {fold, stopped};

  deeptune::test::ScratchDir scratch("deeptune-report-context");
  const fs::path out = scratch.path / "r";
  ev::writeDevmapReport(out.string(), "X", rows, folds, methods, context);
  const std::string summary = slurp(out / "summary.md");
  CHECK_THAT(summary, Catch::Contains("Command: `deeptune evaluate --seeds 2`") &&
                          Catch::Contains("- machine: test CPU, 2 cores"));
  CHECK_THAT(summary, Catch::Contains("## Mean over runs") &&
                          Catch::Contains("| deeptune | 2 | 87.5% ± 17.7 (75.0\xE2\x80\x93"
                                          "100.0) |"));
  CHECK_THAT(summary,
             Catch::Contains("2 fold models; 2 collapsed") &&
                 Catch::Contains("| deeptune-s1 | 1 | 0 | 55.0% | 80.0% (1) | 50.0% | 1/2 | "
                                 "collapsed  |") &&
                 Catch::Contains("| 2 | 0 | 55.0% | 80.0% (1) | 50.0% | 1/2 | collapsed "
                                 "pretrained (next-token loss 4.50 \xE2\x86\x92 3.25) kept "
                                 "epoch 1 (validation 62.5%) |"));
  const std::string runs = slurp(out / "runs.csv");
  CHECK_THAT(runs, Catch::Contains("\ndeeptune,2,87.500000,17.677670,75.000000,100.000000,"));
  CHECK_THAT(runs, Catch::Contains("\nstatic,1,100.000000,0.000000,"));
  CHECK(slurp(out / "training.csv") ==
        "method,seed,fold,epochs,final_loss,final_train_accuracy,best_train_accuracy,best_epoch,"
        "test_rows,test_accuracy,predicted_gpu,collapsed,kept_epoch,validation_accuracy,"
        "pretrain_epochs,pretrain_final_loss\n"
        "deeptune-s1,1,0,2,0.900000,55.0000,80.0000,1,2,50.0000,1,1,,,,\n"
        "deeptune-s1,2,0,2,0.900000,55.0000,80.0000,1,2,50.0000,1,1,1,62.5000,2,3.250000\n");
}

TEST_CASE("report: the score table the CLI prints after an evaluation", "[report][paper]") {
  const std::string dir = deeptune::test::paperDataDir();
  const auto rows = dd::readDevmapCsv(dir + "/cgo17-amd.csv");
  const auto folds = ev::foldOfRows(rows, dd::readFoldsCsv(dir + "/folds-amd.csv"));
  const std::vector<ev::MethodPredictions> methods = {
      {"static", ev::crossValidate(rows.size(), folds, bl::staticMappingPredictor(rows)).devices}};
  const std::string table = ev::devmapScoreTable("amd", "paper folds", rows, folds, methods);
  CHECK(table ==
        "amd, paper folds, 680 rows\n"
        "method                accuracy suite mean   speedup   geomean   %oracle\n"
        "static                   58.8%      45.0%     1.00x     1.00x     27.5%\n");

  dm::FoldTraining fold;
  fold.method = "deeptune";
  fold.fold = 2;
  fold.testRows = 10;
  fold.testCorrect = 7;
  fold.predictedGpu = 4;
  fold.training.finalAccuracy = 0.5;
  fold.training.bestAccuracy = 0.9;
  fold.training.bestEpoch = 3;
  const std::string report = ev::foldTrainingReport(fold, 10);
  CHECK_THAT(report,
             Catch::StartsWith("deeptune fold 3/10: test accuracy 70.0% (4 of 10 rows GPU)"));
  CHECK_THAT(report, Catch::Contains("\nwarning: deeptune fold 3 collapsed"));
  // Measured data names the device of its GPU column (issue 45: both may be CPUs).
  CHECK_THAT(ev::foldTrainingReport(fold, 10, "pthread-cpu"),
             Catch::Contains("(4 of 10 rows on pthread-cpu)"));
}

TEST_CASE("report: a DeepTune epoch's progress line", "[report]") {
  dm::EpochProgress p;
  p.epoch = 7;
  p.epochs = 50;
  p.loss = 0.48213;
  p.accuracy = 0.8125;
  CHECK(ev::deeptuneEpochLine(0, 3, 1, 10, p, 182) ==
        "deeptune run 1/3 fold 2/10  epoch 7/50  loss 0.4821  accuracy 0.812  ETA 3m02s");
  p.validationAccuracy = 0.75;
  CHECK_THAT(ev::deeptuneEpochLine(0, 1, 0, 10, p, 5),
             Catch::Contains("accuracy 0.812  validation 0.750  ETA 5s"));
}

TEST_CASE("report: each method's probabilities, calibration error and reliability diagram",
          "[report][calibration]") {
  // Six rows of two kernels; "sure" says 0.95 for the device it chooses and is right 3 times of
  // 6, "honest" says 0.55 and is right 4 times of 6; "plain" has no probability.
  std::vector<dd::DevmapRow> rows(6);
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].index = static_cast<int>(i);
    rows[i].benchmark = i < 3 ? "npb-3.3-EP-embar" : "npb-3.3-CG-conj_grad";
    rows[i].dataset = std::to_string(i);
    rows[i].oracle = i % 2 == 0 ? "GPU" : "CPU";
    rows[i].runtimeCpu = 2;
    rows[i].runtimeGpu = 1;
    if (rows[i].oracle == "CPU") std::swap(rows[i].runtimeCpu, rows[i].runtimeGpu);
  }
  const std::vector<int> folds = {0, 0, 0, 1, 1, 1};
  ev::MethodPredictions sure{"sure", std::vector<std::string>(6, "GPU"), "",
                             std::vector<double>(6, 0.95)};
  ev::MethodPredictions honest{"honest",
                               {"GPU", "GPU", "GPU", "CPU", "CPU", "CPU"},
                               "",
                               {0.55, 0.55, 0.55, 0.45, 0.45, 0.45}};
  ev::MethodPredictions plain{"plain", std::vector<std::string>(6, "CPU")};
  deeptune::test::ScratchDir scratch("deeptune-report-calibration");
  const fs::path out = scratch.path / "report";
  ev::writeDevmapReport(out.string(), "toy", rows, folds, {sure, honest, plain});

  // predictions.csv keeps the probabilities of the methods that have them, after the devices.
  const std::string predictions = slurp(out / "predictions.csv");
  CHECK_THAT(predictions,
             Catch::StartsWith("index,benchmark,dataset,oracle,fold,sure,honest,plain,sure_p_gpu,"
                               "honest_p_gpu\n"));
  CHECK_THAT(predictions, Catch::Contains(",GPU,GPU,CPU,0.950000,0.550000\n"));
  // ECE: sure, one bin (0.9-1.0): |0.5 - 0.95| = 0.45; honest: the 0.5-0.6 bin holds all six
  // (0.55 sure of its device), right 4 of 6 (rows 0, 2 GPU; rows 3, 5 CPU): |0.667 - 0.55|.
  const std::string metrics = slurp(out / "metrics.csv");
  CHECK_THAT(metrics, Catch::Contains("\nsure,all,50.0000,"));
  CHECK_THAT(metrics, Catch::Contains(",6,0.450000\n"));
  CHECK_THAT(metrics, Catch::Contains(",6,0.116667\n"));
  CHECK_THAT(metrics, Catch::Contains("\nplain,all,50.0000,"));
  // plain's and the oracle's lines (all, and the one suite NPB): no probability, no ECE
  CHECK(countOf(metrics, ",6,\n") == 4);
  const std::string calibration = slurp(out / "calibration.csv");
  CHECK_THAT(calibration, Catch::StartsWith("method,bin_lower,bin_upper,rows,mean_probability,"
                                            "accuracy,ece\n"));
  CHECK(countOf(calibration, "\nsure,") == 10);
  CHECK(countOf(calibration, "\nplain,") == 0);
  CHECK_THAT(calibration, Catch::Contains("\nsure,0.9,1.0,6,0.950000,0.500000,0.450000\n"));
  const std::string summary = slurp(out / "summary.md");
  CHECK_THAT(summary, Catch::Contains("## Calibration"));
  CHECK_THAT(summary, Catch::Contains("| sure | 0.450 | 50.0% |"));
  const std::string svg = slurp(out / "reliability.svg");
  CHECK(xmlProblem(svg).empty());
  CHECK(countOf(svg, "class=\"marker\"") == 2);  // one non-empty bin per method with probabilities
  CHECK(countOf(svg, "class=\"diagonal\"") == 1);
  CHECK_THAT(svg, Catch::Contains("sure (ECE 0.450)"));
  CHECK(svg.find("plain") == std::string::npos);
  const std::string table = ev::devmapScoreTable("toy", "2 folds", rows, folds, {sure, plain});
  CHECK_THAT(table, Catch::Contains("%oracle    ECE\n"));
  CHECK_THAT(table, Catch::Contains("  0.450\n"));
  CHECK_THAT(table, Catch::Contains("      -\n"));

  // Without a method with probabilities, neither file is written.
  const fs::path without = scratch.path / "without";
  ev::writeDevmapReport(without.string(), "toy", rows, folds, {plain});
  CHECK(!fs::exists(without / "calibration.csv"));
  CHECK(!fs::exists(without / "reliability.svg"));
  // A probability count that does not match the rows is refused.
  ev::MethodPredictions broken = sure;
  broken.gpuProbability.pop_back();
  CHECK_THROWS_AS(
      ev::writeDevmapReport((scratch.path / "broken").string(), "toy", rows, folds, {broken}),
      ev::EvaluationError);
}
