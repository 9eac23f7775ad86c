// End-to-end: the user's own machine loop on PoCL's two devices (measure, train, predict,
// validate, evaluate) and its bad input.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "data/csv_reader.hpp"
#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using deeptune::test::runCli;
using deeptune::test::ScratchDir;

namespace {

const char* const kTwoDevices = "POCL_DEVICES='pthread basic'";

std::string ourKernel(const std::string& name) {
  return "'" + deeptune::test::sourceDir() + "/kernels/" + name + "'";
}

/// Measures a few of our kernels on PoCL's two devices into `csv`; returns the devices' names.
std::pair<std::string, std::string> measureTwoDevices(const std::string& csv) {
  const auto measured =
      runCli("measure " + ourKernel("saxpy.cl") + " " + ourKernel("transcendental.cl") + " " +
                 ourKernel("copy_buffer.cl") + " --gsize 64,4096,65536 --runs 5 -o '" + csv + "'",
             kTwoDevices);
  INFO(measured.err);
  REQUIRE(measured.exitCode == 0);
  const deeptune::data::CsvTable table = deeptune::data::readCsv(csv);
  REQUIRE(table.rows.size() == 9);
  return {table.rows[0][table.column("dev0_name")], table.rows[0][table.column("dev1_name")]};
}

}  // namespace

TEST_CASE("own machine: measure, train, predict and validate on PoCL's two devices",
          "[cli][own-machine]") {
  ScratchDir dir("deeptune-own-machine");
  const std::string csv = (dir.path / "times.csv").string();
  const std::string model = (dir.path / "mine.model").string();
  const auto [first, second] = measureTwoDevices(csv);
  REQUIRE(first != second);

  const auto trained = runCli("train --task devmap --data '" + csv + "' -o '" + model +
                              "' --method deeptune --epochs 10");
  INFO(trained.err);
  REQUIRE(trained.exitCode == 0);
  CHECK_THAT(trained.err, Contains("9 rows, " + first + " (CPU) vs " + second + " (CPU)"));
  CHECK_THAT(trained.out, Contains("trained deeptune on 9 rows"));

  const auto predicted = runCli("predict " + ourKernel("saxpy.cl") + " --model '" + model +
                                "' --dsize 786432 --wgsize 256 --json");
  INFO(predicted.err);
  REQUIRE(predicted.exitCode == 0);
  const auto decision = nlohmann::json::parse(predicted.out);
  CHECK(decision["device"] == "CPU");
  const std::string chosen = decision["device_name"];
  CHECK((chosen == first || chosen == second));

  const auto validated =
      runCli("validate " + ourKernel("saxpy.cl") + " --model '" + model + "' --gsize 65536 --json",
             kTwoDevices);
  INFO(validated.err);
  REQUIRE(validated.exitCode == 0);
  const auto verdict = nlohmann::json::parse(validated.out);
  CHECK(verdict["predicted"] == chosen);  // the same launch as predict's: 786432 bytes, wgsize 256
  const std::string fastest = verdict["fastest"];
  CHECK((fastest == first || fastest == second));
  CHECK(verdict["correct"] == (fastest == chosen));
  CHECK(verdict["method"] == "deeptune");

  // The default predictor (issue 41) learns the same devices and names them too.
  const std::string boosted = (dir.path / "boosted.model").string();
  const auto trainedDefault = runCli("train --data '" + csv + "' -o '" + boosted + "'");
  INFO(trainedDefault.err);
  REQUIRE(trainedDefault.exitCode == 0);
  CHECK_THAT(trainedDefault.out, Contains("trained source-boosted"));
  const auto answered = runCli("predict " + ourKernel("saxpy.cl") + " --model '" + boosted +
                               "' --dsize 786432 --wgsize 256 --json");
  REQUIRE(answered.exitCode == 0);
  const auto boostedDecision = nlohmann::json::parse(answered.out);
  CHECK(boostedDecision["method"] == "source-boosted");
  const std::string boostedChoice = boostedDecision["device_name"];
  CHECK((boostedChoice == first || boostedChoice == second));

  SECTION("a model whose devices are not on the machine: one line, exit 2") {
    const auto missing =
        runCli("validate " + ourKernel("saxpy.cl") + " --model '" + model + "' --gsize 4096",
               "POCL_DEVICES=pthread");
    CHECK(missing.exitCode == 2);
    CHECK_THAT(missing.err, Contains("this machine has no " + first));
    CHECK(missing.out.empty());
  }
  SECTION("evaluate reads the same CSV, grouped by kernel") {
    const std::string report = (dir.path / "report").string();
    const auto evaluated =
        runCli("evaluate --data '" + csv + "' --protocol kernel --methods static,grewe --report '" +
               report + "'");
    INFO(evaluated.err);
    REQUIRE(evaluated.exitCode == 0);
    CHECK_THAT(evaluated.out, Contains("3 folds grouped by kernel source"));
    CHECK(std::filesystem::exists(report + "/summary.md"));
    CHECK_THAT(deeptune::test::readWholeFile(report + "/summary.md"),
               Contains("measured devices: " + first));
  }
}

TEST_CASE("own machine: a measure CSV of one device or of no usable row is refused",
          "[cli][own-machine]") {
  ScratchDir dir("deeptune-own-machine-bad");
  const std::string one = (dir.path / "one.csv").string();
  const auto measured =
      runCli("measure " + ourKernel("scale.cl") + " --gsize 1024 --runs 5 -o '" + one + "'",
             "POCL_DEVICES=basic");
  REQUIRE(measured.exitCode == 0);
  const std::string model = (dir.path / "m.model").string();
  auto result = runCli("train --data '" + one + "' -o '" + model + "'");
  CHECK(result.exitCode == 2);
  CHECK_THAT(result.err, Contains(one + ":1:1: device mapping decides between two devices"));
  CHECK(!std::filesystem::exists(model));

  // Two devices, but every row's second device failed its checks.
  const std::string header =
      "benchmark,dataset,gsize,wgsize,transfer,oracle,runtime_cpu,runtime_gpu,dev0_name,"
      "dev0_type,dev0_status,dev0_checks,dev0_wgsize,dev0_kernel_ns,dev0_h2d_ns,dev0_d2h_ns,"
      "dev0_total_ns,dev0_ci_low_ns,dev0_ci_high_ns,dev0_runs,dev0_message,dev1_name,dev1_type,"
      "dev1_status,dev1_checks,dev1_wgsize,dev1_kernel_ns,dev1_h2d_ns,dev1_d2h_ns,dev1_total_ns,"
      "dev1_ci_low_ns,dev1_ci_high_ns,dev1_runs,dev1_message,src\n";
  const std::string row =
      "k.cl:k,64,64,64,512,a,0.01,,a,CPU,OK,,64,1,1,1,10000,9000,11000,3,,b,CPU,NO_OUTPUT,,64,1,"
      "1,1,9000,8000,10000,3,,__kernel void k(__global float* x) { x[0] = 1.0f; }\n";
  const std::string unusable = dir.file("unusable.csv", header + row + row);
  result = runCli("train --data '" + unusable + "' -o '" + model + "'");
  CHECK(result.exitCode == 2);
  CHECK_THAT(result.err, Contains("no row has usable timings on both devices (2 rows skipped"));
  CHECK(!std::filesystem::exists(model));
}
