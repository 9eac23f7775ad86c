// End-to-end tests of `deeptune evaluate`: parallel folds give the same models as one worker,
// fold reports, several seeds.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "data/csv_reader.hpp"
#include "data/datasets.hpp"
#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using deeptune::test::readWholeFile;
using deeptune::test::runCli;
using deeptune::test::ScratchDir;

namespace {

/// The canonical NVIDIA folds folded into `k` (fold mod k): every row, fewer and larger folds.
std::string foldsModulo(const ScratchDir& dir, int k) {
  std::string csv = "index,benchmark,dataset,fold\n";
  for (const auto& fold :
       deeptune::data::readFoldsCsv(deeptune::test::paperDataDir() + "/folds-nvidia.csv")) {
    csv += deeptune::data::csvRow(
        {std::to_string(fold.index), fold.benchmark, fold.dataset, std::to_string(fold.fold % k)});
  }
  return dir.file("folds.csv", csv);
}

std::string evaluateCommand(const std::string& folds, const std::string& report,
                            const std::string& options) {
  return "evaluate --methods deeptune --data '" + deeptune::test::paperDataDir() +
         "/cgo17-nvidia.csv' --folds '" + folds + "' --report '" + report + "' " + options;
}

}  // namespace

TEST_CASE("cli evaluate: two workers train the same fold models as one", "[cli][evaluate]") {
  // Before the fix, with Debian's single-threaded OpenBLAS, the two folds trained at once
  // corrupted each other's matrix products: predictions differed between --workers 1 and 2 on
  // this slice, and full-length runs collapsed (model/README.md). 3 folds of all 680 rows, the
  // last 64 tokens, 20 epochs: ~20 s per run here.
  ScratchDir dir("deeptune-cli-evaluate");
  const std::string folds = foldsModulo(dir, 3);
  const std::string options = "--epochs 20 --max-length 64 --workers ";
  std::string predictions[2];
  for (int workers : {1, 2}) {
    const std::string report = (dir.path / ("w" + std::to_string(workers))).string();
    const auto result = runCli(evaluateCommand(folds, report, options + std::to_string(workers)));
    INFO(result.err);
    REQUIRE(result.exitCode == 0);
    // Each fold reports its test accuracy when it ends; nothing collapsed.
    CHECK_THAT(result.err, Contains("deeptune fold 1/3: test accuracy") &&
                               Contains("deeptune fold 3/3: test accuracy"));
    CHECK_THAT(result.err, !Contains("collapsed") && !Contains("warning"));
    const std::string summary = readWholeFile(report + "/summary.md");
    // Really two workers: a BLAS unsafe for concurrent calls would have made it one.
    CHECK_THAT(summary, Contains(std::to_string(workers) + " workers (" + std::to_string(workers) +
                                 " asked)"));
    CHECK_THAT(summary, Contains("machine: ") && Contains("Command: `deeptune evaluate") &&
                            Contains("- program: deeptune 0."));
    predictions[workers - 1] = readWholeFile(report + "/predictions.csv");
    const auto training = deeptune::data::readCsv(report + "/training.csv");
    REQUIRE(training.rows.size() == 3);
    for (size_t fold = 0; fold < 3; ++fold) {
      const auto field = [&](const char* name) {
        return training.doubleAt(fold, training.column(name));
      };
      INFO("fold " << fold);
      const double gpu = field("predicted_gpu");
      CHECK(gpu > 0);  // no fold predicts one device for every test row
      CHECK(gpu < field("test_rows"));
      CHECK(field("collapsed") == 0);
      CHECK(field("best_train_accuracy") - field("final_train_accuracy") <= 10.0);
      CHECK(field("test_accuracy") > 60.0);
    }
  }
  REQUIRE(!predictions[0].empty());
  CHECK(predictions[0] == predictions[1]);
}

TEST_CASE("cli evaluate: --seeds N runs the seeds of N single evaluations", "[cli][evaluate]") {
  ScratchDir dir("deeptune-cli-evaluate-seeds");
  const std::string folds = foldsModulo(dir, 2);
  const std::string quick = "--epochs 2 --max-length 16 ";
  const std::string both = (dir.path / "both").string();
  const std::string second = (dir.path / "second").string();
  auto result = runCli(evaluateCommand(folds, both, quick + "--seeds 2 --seed 7"));
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK_THAT(result.out, Contains("deeptune, mean of 2 runs: accuracy"));
  result = runCli(evaluateCommand(folds, second, quick + "--seed 1007"));
  REQUIRE(result.exitCode == 0);

  const auto runs = deeptune::data::readCsv(both + "/runs.csv");
  REQUIRE(runs.rows.size() == 1);
  CHECK(runs.rows[0].at(runs.column("method")) == "deeptune");
  CHECK(runs.rows[0].at(runs.column("runs")) == "2");
  CHECK_THAT(readWholeFile(both + "/summary.md"), Contains("## Mean over runs"));
  // Run 2 of --seeds 2 --seed 7 is the evaluation with --seed 1007.
  const auto many = deeptune::data::readCsv(both + "/predictions.csv");
  const auto one = deeptune::data::readCsv(second + "/predictions.csv");
  const auto column = many.findColumn("deeptune-s1007");
  REQUIRE(column);
  REQUIRE(many.findColumn("deeptune-s7"));
  REQUIRE(many.rows.size() == one.rows.size());
  for (size_t row = 0; row < one.rows.size(); ++row) {
    REQUIRE(many.rows[row].at(*column) == one.rows[row].at(one.column("deeptune")));
  }
  const auto training = deeptune::data::readCsv(both + "/training.csv");
  CHECK(training.rows.size() == 4);  // 2 runs x 2 folds
}

TEST_CASE("cli evaluate: grouped by source, with the references and every DeepTune option",
          "[cli][evaluate]") {
  ScratchDir dir("deeptune-cli-evaluate-grouped");
  const std::string report = (dir.path / "r").string();
  std::filesystem::create_directory(dir.path / "corpus");
  dir.file("corpus/a.cl", "__kernel void A(__global float* a) {\n  a[get_global_id(0)] = 1;\n}\n");
  dir.file("corpus/notes.txt", "not a kernel");
  const auto result =
      runCli("evaluate --data '" + deeptune::test::paperDataDir() +
             "/cgo17-nvidia.csv' --protocol kernel --seed 7 --methods "
             "static,hand-tree,memory,hand-boosted,token-boosted,deeptune "
             "--epochs 2 --max-length 16 --seeds 2 --ensemble --tree-head --boosted-head "
             "--boosted-head-counts --aux-scale "
             "log2 --pooling mean --early-stopping 0.2 --pretrain-epochs 1 --pretrain-corpus '" +
             (dir.path / "corpus").string() + "' --report '" + report + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  const std::string summary = readWholeFile(report + "/summary.md");
  CHECK_THAT(summary,
             Contains("| hand-tree (reference) |") && Contains("| memory (reference) |") &&
                 Contains("| hand-boosted (reference) |") &&
                 Contains("vocabulary derived from each fold's training sources") &&
                 Contains("log2 aux inputs, mean pooling, early stopping on 0.20 of "
                          "the training sources") &&
                 Contains("sources, next-token pretraining (1 epochs) on the fold's training "
                          "sources and 1 corpus kernels"));
  const auto training = deeptune::data::readCsv(report + "/training.csv");
  REQUIRE(training.rows.size() == 20);  // 2 runs x 10 folds
  for (const auto& row : training.rows) {
    const int kept = std::stoi(row.at(training.column("kept_epoch")));
    CHECK((kept == 1 || kept == 2));
    CHECK(row.at(training.column("pretrain_epochs")) == "1");
  }
  const auto predictions = deeptune::data::readCsv(report + "/predictions.csv");
  const auto column = [&](const char* name) {
    const auto found = predictions.findColumn(name);
    REQUIRE(found);
    return *found;
  };
  const size_t first = column("deeptune-s7"), second = column("deeptune-s1007"),
               ensemble = column("deeptune-ensemble"), memory = column("memory"),
               staticMapping = column("static");
  column("deeptune-tree-s7");
  column("deeptune-tree-s1007");
  column("hand-tree");
  column("deeptune-boosted-tc-s7");
  column("deeptune-boosted-tc-s1007");
  column("deeptune-boosted-tc-ensemble");
  const size_t oracle = column("oracle"), tokens = column("token-boosted");
  const size_t boosted = column("deeptune-boosted-s7"),
               boostedSecond = column("deeptune-boosted-s1007"),
               boostedEnsemble = column("deeptune-boosted-ensemble");
  size_t agreeing = 0, tokensRight = 0, staticRight = 0;
  for (const auto& row : predictions.rows) {
    tokensRight += row.at(tokens) == row.at(oracle);
    staticRight += row.at(staticMapping) == row.at(oracle);
    // No source of a test fold is in its training folds: memory has nothing to remember.
    CHECK(row.at(memory) == row.at(staticMapping));
    // Where both runs say the same, their average says it too.
    if (row.at(first) == row.at(second)) {
      ++agreeing;
      CHECK(row.at(ensemble) == row.at(first));
    }
    if (row.at(boosted) == row.at(boostedSecond)) CHECK(row.at(boostedEnsemble) == row.at(boosted));
  }
  CHECK(agreeing > 0);
  // The bag of tokens learns from unseen sources (83.8% on NVIDIA, grouping 204; static 56.9%).
  CHECK(tokensRight > staticRight + predictions.rows.size() / 10);
  const auto runs = deeptune::data::readCsv(report + "/runs.csv");
  std::vector<std::string> groups;
  for (const auto& row : runs.rows) groups.push_back(row.at(runs.column("method")));
  CHECK(groups == std::vector<std::string>{"static", "hand-tree", "memory", "hand-boosted",
                                           "token-boosted", "deeptune", "deeptune-ensemble",
                                           "deeptune-tree", "deeptune-boosted",
                                           "deeptune-boosted-ensemble", "deeptune-boosted-tc",
                                           "deeptune-boosted-tc-ensemble"});
  CHECK_THAT(summary, Contains("deeptune-boosted (XGBoost, 50 rounds, depth 6") &&
                          Contains("deeptune-boosted-tc (the same boosted trees"));
  // Issue 44: every method with a probability keeps it and has its calibration reported; the
  // tree head and the baselines have none.
  for (const char* method :
       {"deeptune-s7", "deeptune-ensemble", "deeptune-boosted-s7", "deeptune-boosted-ensemble",
        "deeptune-boosted-tc-s1007", "hand-boosted", "token-boosted"}) {
    INFO(method);
    const size_t probability = column((std::string(method) + "_p_gpu").c_str());
    const size_t device = column(method);
    for (const auto& row : predictions.rows) {
      const double p = std::stod(row.at(probability));
      CHECK(p >= 0);
      CHECK(p <= 1);
      if (p != 0.5) CHECK(row.at(device) == (p > 0.5 ? "GPU" : "CPU"));
    }
    CHECK_THAT(summary, Contains("| " + std::string(method) + " | 0."));  // its ECE
  }
  for (const char* method : {"static", "memory", "hand-tree", "deeptune-tree-s7"}) {
    CHECK_FALSE(predictions.findColumn(std::string(method) + "_p_gpu"));
  }
  CHECK(std::filesystem::is_regular_file(report + "/reliability.svg"));
  const auto calibration = deeptune::data::readCsv(report + "/calibration.csv");
  CHECK(calibration.rows.size() % 10 == 0);
  // How far each row is from its fold's training programs, and each method on the most novel
  // quarter.
  const auto novelty = deeptune::data::readCsv(report + "/novelty.csv");
  REQUIRE(novelty.rows.size() == predictions.rows.size());
  for (const auto& row : novelty.rows) {
    const double distance = std::stod(row.at(novelty.column("nearest_distance")));
    CHECK(distance >= 0);
    CHECK(distance <= 1);
  }
  CHECK_THAT(summary,
             Contains("## How far from what it learned") && Contains("| token-boosted | "));
}

TEST_CASE("cli train and evaluate --calibration: the shipped probability, calibrated in the file",
          "[cli][evaluate][calibration]") {
  ScratchDir dir("deeptune-cli-calibration");
  const std::string data = deeptune::test::paperDataDir() + "/cgo17-amd.csv";
  const std::string calibrated = (dir.path / "t.model").string();
  const std::string plain = (dir.path / "n.model").string();
  REQUIRE(runCli("train --data '" + data + "' -o '" + calibrated + "'").exitCode == 0);
  REQUIRE(runCli("train --data '" + data + "' --calibration none -o '" + plain + "'").exitCode ==
          0);
  CHECK_THAT(readWholeFile(calibrated).substr(0, 17), Contains("DEEPTUNE-MODEL 8 "));
  CHECK_THAT(readWholeFile(calibrated), Contains("\"calibration\":{\"method\":\"temperature\""));
  CHECK_THAT(readWholeFile(plain), !Contains("\"calibration\""));
  // The same device, a probability nearer 0.5: train's default is calibrated by temperature.
  const std::string kernel = deeptune::test::sourceDir() + "/kernels/vector_add.cl";
  const auto ask = [&](const std::string& model) {
    const auto result = runCli("predict '" + kernel +
                               "' --dsize 4194304 --wgsize 256 --json --model '" + model + "'");
    REQUIRE(result.exitCode == 0);
    return nlohmann::json::parse(result.out);
  };
  const auto sure = ask(plain), softened = ask(calibrated);
  CHECK(sure.at("device") == softened.at("device"));
  CHECK(softened.at("probability").get<double>() < sure.at("probability").get<double>());
  CHECK(softened.at("probability").get<double>() > 0.5);
  // A bad calibration is named, exit 2, nothing written.
  const auto bad = runCli("train --data '" + data + "' --calibration beta -o '" +
                          (dir.path / "b.model").string() + "'");
  CHECK(bad.exitCode == 2);
  CHECK_THAT(bad.err, Contains("--calibration") && Contains("'beta'"));
  CHECK_FALSE(std::filesystem::exists(dir.path / "b.model"));
  // evaluate reports each calibration's ECE on the same folds (the ablation's rows).
  const std::string report = (dir.path / "r").string();
  const auto evaluated = runCli("evaluate --data '" + data +
                                "' --protocol kernel --seed 204 --methods source-boosted "
                                "--calibration isotonic --report '" +
                                report + "'");
  INFO(evaluated.err);
  REQUIRE(evaluated.exitCode == 0);
  CHECK_THAT(evaluated.out, Contains("ECE"));
  CHECK_THAT(readWholeFile(report + "/summary.md"), Contains("calibration isotonic"));
}

TEST_CASE("cli evaluate: bad options exit 2 before any training", "[cli][evaluate]") {
  ScratchDir dir("deeptune-cli-evaluate-bad");
  const std::string folds = foldsModulo(dir, 2);
  for (const char* bad :
       {"--seeds 0", "--seeds 101", "--workers 0", "--seeds x", "--methods deeptune,bogus",
        "--methods ,", "--ensemble", "--ensemble --seeds 1", "--aux-scale log", "--aux-scale ''",
        "--pooling max", "--early-stopping 1", "--early-stopping -0.1", "--early-stopping nan",
        "--pretrain-epochs -1", "--pretrain-epochs 1001", "--pretrain-corpus /",
        "--pretrain-epochs 1 --pretrain-corpus /nonexistent",
        "--pretrain-epochs 1 --pretrain-corpus /"}) {
    const auto result = runCli(evaluateCommand(folds, (dir.path / "r").string(), bad));
    INFO(bad << " -> " << result.err);
    CHECK(result.exitCode == 2);
    CHECK(deeptune::test::lineCount(result.err) == 1);  // refused before training started
  }
}

TEST_CASE("cli evaluate --task coarsening: a seed gives the same predictions on any worker count",
          "[cli][evaluate][coarsening]") {
  ScratchDir dir("deeptune-evaluate-coarsening");
  const std::string command =
      "evaluate --task coarsening --data '" + deeptune::test::paperDataDir() +
      "/pact-2014-runtimes.csv' --devices Tahiti --methods fixed,deeptune,deeptune-tl --seeds 2 "
      "--epochs 3 --max-length 96 --seed 7 --report '";
  const auto one = runCli(command + (dir.path / "one").string() + "' --workers 1");
  INFO(one.err);
  REQUIRE(one.exitCode == 0);
  const auto two = runCli(command + (dir.path / "two").string() + "' --workers 2");
  REQUIRE(two.exitCode == 0);
  const std::string predictions = readWholeFile((dir.path / "one" / "predictions.csv").string());
  CHECK(predictions == readWholeFile((dir.path / "two" / "predictions.csv").string()));
  // 17 held-out kernels: fixed once, each learned method in both runs.
  CHECK(deeptune::data::readCsv((dir.path / "one" / "predictions.csv").string()).rows.size() ==
        17 * (1 + 2 * 2));
  const auto scores = [](const std::string& out) { return out.substr(0, out.find("report:")); };
  CHECK_THAT(one.out, Contains("deeptune-tl  mean speedup"));
  CHECK(scores(one.out) == scores(two.out));
  CHECK_FALSE(std::filesystem::exists(dir.path / "one" / "trainings.partial.csv"));

  // Killed part-way, then run again: it resumes from the trainings log, same predictions.
  const std::string resumedDir = (dir.path / "resumed").string();
  const std::string log = resumedDir + "/trainings.partial.csv";
  // SIGKILL once 10 trainings are logged (header + 10 lines), whatever the machine's speed.
  const std::string killAfterTen =
      "'" + deeptune::test::cliPath() + "' " + command + resumedDir +
      "' --workers 2 >/dev/null 2>&1 & pid=$!; i=0; while [ \"$(cat '" + log +
      "' 2>/dev/null | wc -l)\" -lt 11 ] && [ $i -lt 2400 ]; " +
      "do sleep 0.05; i=$((i+1)); done; kill -9 $pid";
  REQUIRE(std::system(killAfterTen.c_str()) == 0);
  REQUIRE(std::filesystem::exists(log));
  const size_t logged = deeptune::data::readCsv(log).rows.size();
  CHECK(logged >= 10);
  CHECK(logged < 68);
  const auto resumed = runCli(command + resumedDir + "' --workers 2");
  REQUIRE(resumed.exitCode == 0);
  CHECK_THAT(resumed.err, Contains("resuming: " + std::to_string(logged) + " trainings"));
  CHECK(readWholeFile(resumedDir + "/predictions.csv") == predictions);
  CHECK_FALSE(std::filesystem::exists(log));
}

TEST_CASE("cli evaluate --task coarsening: one shared network, regret loss, ensembles, fallback",
          "[cli][evaluate][coarsening]") {
  ScratchDir dir("deeptune-evaluate-coarsening-shared");
  const std::string data = deeptune::test::paperDataDir();
  const std::string report = (dir.path / "r").string();
  const auto result = runCli(
      "evaluate --task coarsening --data '" + data +
      "/pact-2014-runtimes.csv' --devices Tahiti,Kepler --methods fixed,deeptune,deeptune-tl "
      "--seeds 2 --epochs 2 --max-length 48 --shared-devices --loss regret --ensemble 2 "
      "--fallback-folds 2 --transfer pretrained --pretrain-epochs 1 --pretrain-data '" +
      data + "/cgo17-amd.csv' --freeze-epochs 1 --report '" + report + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  // Every held-out kernel on both devices: fixed once, each learned method in both runs.
  const auto predictions = deeptune::data::readCsv(report + "/predictions.csv");
  CHECK(predictions.rows.size() == 2 * 17 * (1 + 2 * 2));
  // A fallback takes the fixed factor of the same device and held-out kernel.
  std::map<std::pair<std::string, std::string>, std::string> fixed;
  for (const auto& row : predictions.rows) {
    if (row[1] == "fixed") fixed[{row[0], row[3]}] = row[4];
  }
  for (const auto& row : predictions.rows) {
    if (row[8] == "1") CHECK(row[4] == fixed.at({row[0], row[3]}));
  }
  const std::string summary = readWholeFile(report + "/summary.md");
  CHECK_THAT(summary, Contains("## Agreement between runs"));
  CHECK_THAT(summary, Contains("one network over all devices"));
  CHECK_THAT(summary, Contains("expected regret"));
  CHECK_THAT(summary, Contains("identical to a coarsening kernel left out"));
  // The options are checked before any training.
  for (const char* bad : {"--loss hinge", "--ensemble 0", "--fallback-folds 1",
                          "--transfer pretrained", "--pretrain-data x.csv"}) {
    const auto refused = runCli("evaluate --task coarsening --data '" + data +
                                "/pact-2014-runtimes.csv' --report '" + report + "2' " + bad);
    INFO(bad << " -> " << refused.err);
    CHECK(refused.exitCode == 2);
    CHECK(deeptune::test::lineCount(refused.err) == 1);
  }
}

TEST_CASE("cli train: the model does not depend on --threads", "[cli][train]") {
  // The fast LSTM's threads each take every n-th sequence of a batch: the weights written are
  // the same bytes on one thread and on three (all 680 rows, the last 64 tokens, 2 epochs).
  ScratchDir dir("deeptune-cli-train-threads");
  std::string weights[2];
  for (int threads : {1, 3}) {
    const std::string model = (dir.path / ("t" + std::to_string(threads) + ".model")).string();
    const auto result =
        runCli("train --data '" + deeptune::test::paperDataDir() +
               "/cgo17-amd.csv' --method deeptune --epochs 2 --max-length 64 --threads " +
               std::to_string(threads) + " -o '" + model + "'");
    INFO(result.err);
    REQUIRE(result.exitCode == 0);
    const std::string bytes = readWholeFile(model);
    const size_t header = bytes.find('\n', bytes.find('\n') + 1);  // after magic and JSON lines
    REQUIRE(header != std::string::npos);
    weights[threads == 1 ? 0 : 1] = bytes.substr(header + 1);
  }
  REQUIRE(weights[0].size() > 100000);
  CHECK(weights[0] == weights[1]);
  CHECK(runCli("train --data x.csv -o m.model --threads 0").exitCode == 2);
}

TEST_CASE("cli pretrain: a language model once; predict refuses it, train fine-tunes it",
          "[cli][train]") {
  ScratchDir dir("deeptune-cli-pretrain");
  const std::filesystem::path corpus = dir.path / "corpus" / "sub";
  std::filesystem::create_directories(corpus);  // kernels in a subfolder are read too
  for (int i = 0; i < 12; ++i) {
    std::ofstream(corpus / ("k" + std::to_string(i) + ".cl"))
        << "__kernel void A(__global float* a, const int b) {\n  int c = get_global_id(0);\n"
        << "  if (c < b) {\n    a[c] = a[c] * " << i << ".0f + " << i * 3 << ";\n  }\n}\n";
  }
  const std::string lm = (dir.path / "lm.model").string();
  const std::string curve = (dir.path / "curve.csv").string();
  const auto pretrain = runCli(
      "pretrain --corpus '" + (dir.path / "corpus").string() + "' --epochs 2 " +
      "--max-length 64 --lstm-size 32 --held-out 0.3 -o '" + lm + "' --curve '" + curve + "'");
  INFO(pretrain.err);
  REQUIRE(pretrain.exitCode == 0);
  CHECK_THAT(pretrain.out, Contains("held out") && Contains("wrote"));
  CHECK_THAT(pretrain.err, Contains("epoch 2/2"));
  CHECK_THAT(readWholeFile(curve), Contains("epoch,train_loss,held_out_loss\n1,"));
  const auto predict = runCli("predict --model '" + lm + "' '" + (corpus / "k1.cl").string() +
                              "' --dsize 1024 --wgsize 64");
  CHECK(predict.exitCode == 2);
  CHECK_THAT(predict.err, Contains("language model"));
  // The shape is the command's (a language model has none to keep), the LSTM the file's.
  const std::string tuned = (dir.path / "tuned.model").string();
  const auto train = runCli("train --data '" + deeptune::test::paperDataDir() +
                            "/cgo17-amd.csv' --from '" + lm + "' --epochs 1 --max-length 32 " +
                            "--aux-scale log2 --pooling mean --boosted-head -o '" + tuned + "'");
  INFO(train.err);
  REQUIRE(train.exitCode == 0);
  const auto decision = runCli("predict --model '" + tuned + "' '" + (corpus / "k1.cl").string() +
                               "' --dsize 1024 --wgsize 64 --json");
  CHECK(decision.exitCode == 0);
  CHECK_THAT(decision.out, Contains("\"method\":\"deeptune\""));
  // The bundled language model by its name: its vocabulary, 64 units.
  const auto bundled =
      runCli("train --data '" + deeptune::test::paperDataDir() +
             "/cgo17-amd.csv' --from opencl-lm --epochs 1 --max-length 32 -o '" + tuned + "'");
  INFO(bundled.err);
  CHECK(bundled.exitCode == 0);
  CHECK_THAT(readWholeFile(tuned), Contains("opencl-lm.model (devmap model"));
  CHECK(runCli("pretrain --corpus '" + (dir.path / "corpus").string() + "' --held-out 0.9 -o '" +
               lm + "'")
            .exitCode == 2);
  CHECK(
      runCli("pretrain --corpus '" + (dir.path / "none").string() + "' -o '" + lm + "'").exitCode ==
      2);
}

TEST_CASE("cli train and evaluate: one epoch on a slice of the paper's data, end to end",
          "[cli][train][evaluate]") {
  ScratchDir dir("deeptune-cli-slice");
  // Every tenth row of the AMD data: 68 rows from all seven suites.
  const auto table = deeptune::data::readCsv(deeptune::test::paperDataDir() + "/cgo17-amd.csv");
  std::string csv = deeptune::data::csvRow(table.header);
  size_t sliceRows = 0;
  for (size_t row = 0; row < table.rows.size(); row += 10, ++sliceRows) {
    csv += deeptune::data::csvRow(table.rows[row]);
  }
  const std::string slice = dir.file("slice.csv", csv);
  const std::string model = (dir.path / "slice.model").string();
  auto result = runCli("train --data '" + slice +
                       "' --method deeptune --epochs 1 --max-length 64 -o '" + model + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK_THAT(result.out, Contains("trained deeptune on " + std::to_string(sliceRows) + " rows"));
  CHECK_THAT(result.err, Contains("epoch 1/1"));  // progress, on stderr
  const std::string saved = readWholeFile(model);
  CHECK_THAT(saved, Contains("--epochs 1 --max-length 64"));  // the training command, recorded
  result =
      runCli("predict '" + deeptune::test::sourceDir() +
             "/kernels/vector_add.cl' --dsize 4096 --wgsize 64 --json --model '" + model + "'");
  REQUIRE(result.exitCode == 0);
  CHECK_THAT(result.out, Contains("\"device\":") && Contains("\"networks\":1") &&
                             Contains("\"head\":\"network\""));

  // The headline configuration (issue 28): an ensemble of mean-pooled networks with boosted-tree
  // heads in one file, whose mean probability predict reports.
  const std::string ensemble = (dir.path / "ensemble.model").string();
  result = runCli("train --data '" + slice +
                  "' --method deeptune --epochs 1 --max-length 64 --networks 2 " +
                  "--boosted-head --pooling mean --aux-scale log2 -o '" + ensemble + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK_THAT(result.out,
             Contains("trained deeptune (2 networks) on " + std::to_string(sliceRows) + " rows") &&
                 Contains("boosted-tree heads fitted"));
  CHECK_THAT(result.err, Contains("network 2/2  epoch 1/1"));
  CHECK(readWholeFile(ensemble).rfind("DEEPTUNE-MODEL 5 ", 0) == 0);
  const std::string kernel = deeptune::test::sourceDir() + "/kernels/vector_add.cl";
  result =
      runCli("predict '" + kernel + "' --dsize 4096 --wgsize 64 --json --model '" + ensemble + "'");
  REQUIRE(result.exitCode == 0);
  CHECK_THAT(result.out, Contains("\"networks\":2") && Contains("\"head\":\"boosted-trees\""));
  result = runCli("predict '" + kernel + "' --dsize 4096 --wgsize 64 --model '" + ensemble + "'");
  CHECK_THAT(result.out, Contains("the mean of 2 networks'"));
  // Issue 45: a current file is named with its real version; nothing is written.
  result = runCli("upgrade-model '" + ensemble + "' -o '" + (dir.path / "up.model").string() + "'");
  CHECK(result.exitCode == 0);
  CHECK_THAT(result.out, Contains("is format version 5, the version this deeptune writes for it: "
                                  "already current, nothing written"));
  CHECK_FALSE(std::filesystem::exists(dir.path / "up.model"));
  for (const char* bad : {"--networks 0", "--networks 65",
                          "--boosted-head --task "
                          "coarsening --platform Tahiti"}) {
    result = runCli("train --data '" + slice + "' -o '" + (dir.path / "bad.model").string() + "' " +
                    bad);
    INFO(bad);
    CHECK(result.exitCode == 2);
    CHECK(deeptune::test::lineCount(result.err) == 1);
  }

  const std::string report = (dir.path / "report").string();
  result = runCli("evaluate --data '" + slice + "' --protocol suite --epochs 1 --max-length 64 " +
                  "--report '" + report + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  for (const char* method : {"static ", "grewe ", "deeptune "}) {
    CHECK_THAT(result.out, Contains(method));
  }
  const auto predictions = deeptune::data::readCsv(report + "/predictions.csv");
  CHECK(predictions.rows.size() == sliceRows);
  for (const char* method : {"static", "grewe", "deeptune"}) {
    CHECK(predictions.findColumn(method));
  }
  CHECK(deeptune::data::readCsv(report + "/training.csv").rows.size() == 7);  // a fold per suite
  const std::string summary = readWholeFile(report + "/summary.md");
  CHECK_THAT(summary, Contains("leave one suite out"));
  CHECK_THAT(summary, Contains("- program: deeptune "));
  CHECK_THAT(summary, Contains("--protocol suite --epochs 1"));
}

TEST_CASE("cli train and evaluate refuse data whose oracle contradicts its runtimes",
          "[cli][evaluate][bad-input]") {
  // Issue 27: a row labelled with the slower device changed every metric without a word. A
  // copy of the paper's first rows with one label flipped: exit 2, one line naming FILE:LINE.
  ScratchDir dir("deeptune-cli-evaluate-contradicts");
  const auto paper = deeptune::data::readCsv(deeptune::test::paperDataDir() + "/cgo17-amd.csv");
  const size_t oracle = paper.column("oracle");
  std::string text = deeptune::data::csvRow(paper.header);
  for (size_t r = 0; r < 3; ++r) {
    std::vector<std::string> row = paper.rows[r];
    if (r == 2) row[oracle] = row[oracle] == "CPU" ? "GPU" : "CPU";
    text += deeptune::data::csvRow(row);
  }
  const std::string data = dir.file("flipped.csv", text);
  const int line = deeptune::data::readCsv(data).rowLines[2];
  const std::string d = dir.path.string();
  for (const std::string& command : {"train --data '" + data + "' -o '" + d + "/m.model'",
                                     "evaluate --methods static --data '" + data +
                                         "' --protocol kernel --report '" + d + "/report'"}) {
    INFO(command);
    const auto result = runCli(command);
    CHECK(result.exitCode == 2);
    CHECK(deeptune::test::lineCount(result.err) == 1);
    CHECK_THAT(result.err, Contains(data + ":" + std::to_string(line) + ":") &&
                               Contains("contradicts the row's runtimes"));
  }
  CHECK_FALSE(std::filesystem::exists(d + "/m.model"));
}
