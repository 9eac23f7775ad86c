// End-to-end tests of `deeptune validate`: prediction against measured times on PoCL, the JSON
// form, and bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using deeptune::test::runCli;
using deeptune::test::ScratchDir;

namespace {

std::string ourKernel(const std::string& name) {
  return "'" + deeptune::test::sourceDir() + "/kernels/" + name + "'";
}

}  // namespace

TEST_CASE("validate predicts, runs on every device and judges the prediction", "[cli][validate]") {
  const auto result = runCli("validate " + ourKernel("saxpy.cl") + " --gsize 4096");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK_THAT(result.out, Contains("saxpy.cl:saxpy  gsize 4096, transfer 49152 bytes, wgsize 256"));
  CHECK_THAT(result.out, Contains("predicted  "));
  CHECK_THAT(result.out, Contains("dev0 CPU"));
  CHECK_THAT(result.out, Contains("verdict    "));
}

TEST_CASE("validate --json gives the measurements and the verdict", "[cli][validate]") {
  const auto result =
      runCli("validate " + ourKernel("vector_add.cl") + " --gsize 2048 --wgsize 64 --json");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["kernel"] == "vector_add");
  CHECK(json["transfer"] == 2048 * 4 * 4);  // two inputs once, the sum twice
  CHECK(json["wgsize"] == 64);
  const std::string predicted = json["predicted"];
  CHECK((predicted == "CPU" || predicted == "GPU"));
  REQUIRE(json["devices"].size() >= 1);
  CHECK(json["devices"][0]["status"] == "OK");
  CHECK(json["devices"][0]["ms"].get<double>() > 0);
  CHECK(json["fastest"] != "");
  bool hasPredictedType = false;
  for (const auto& d : json["devices"])
    hasPredictedType = hasPredictedType || d["type"] == predicted;
  if (hasPredictedType) {
    CHECK(json["correct"].is_boolean());
    CHECK(json["of_oracle"].get<double>() > 0);
    CHECK(json["of_oracle"].get<double>() <= 1.0);
  } else {
    CHECK(json["correct"].is_null());
    CHECK_THAT(json["note"].get<std::string>(), Contains("no " + predicted + " device"));
  }
}

TEST_CASE("validate rejects bad input with exit code 2", "[cli][validate]") {
  CHECK(runCli("validate /nonexistent.cl --gsize 64").exitCode == 2);
  CHECK(runCli("validate " + ourKernel("saxpy.cl") + " --gsize 0").exitCode == 2);
  CHECK(runCli("validate " + ourKernel("saxpy.cl")).exitCode == 2);  // --gsize is required
  CHECK(runCli("validate " + ourKernel("saxpy.cl") + " --gsize 64 --platform x").exitCode == 2);
  CHECK(runCli("validate " + ourKernel("saxpy.cl") + " --gsize 64 --wgsize -1").exitCode == 2);
  // A kernel name the file lacks: the same answer as predict, rewrite and measure give.
  for (const std::string command : {"validate", "predict", "rewrite", "measure"}) {
    const std::string extra = command == "predict"    ? " --dsize 64 --wgsize 64"
                              : command == "validate" ? " --gsize 64"
                              : command == "measure"  ? " --gsize 64 -o /dev/null"
                                                      : "";
    const auto typo = runCli(command + " " + ourKernel("saxpy.cl") + " --kernel saxpi" + extra);
    INFO(command << " -> " << typo.err);
    CHECK(typo.exitCode == 2);
    CHECK_THAT(typo.err, Contains("saxpy.cl:1:1: no kernel named 'saxpi'; kernels: saxpy"));
  }
  ScratchDir dir("deeptune-validate");
  const std::string broken =
      dir.file("broken.cl", "__kernel void k(__global float* a) { a[0] = b; }\n");
  const auto result = runCli("validate '" + broken + "' --gsize 64");
  CHECK(result.exitCode == 1);
  CHECK_THAT(result.err, Contains("did not run on any device"));
  CHECK_THAT(result.err, Contains("BUILD_ERROR"));
}

TEST_CASE("validate fails when every device gives RUN_ERROR", "[cli][validate][faults]") {
  // Before: exit 0 with a verdict although no device had run the kernel. A launch over every
  // device's largest buffer (2^31 ulong16 = 256 GiB) fails on all of them.
  ScratchDir dir("deeptune-validate-run-error");
  const std::string wide = dir.file(
      "wide.cl", "__kernel void wide(__global ulong16* a) {\n  a[get_global_id(0)] += 1;\n}\n");
  const auto result = runCli("validate '" + wide + "' --gsize 2147483648");
  INFO(result.err);
  CHECK(result.exitCode == 1);
  CHECK(deeptune::test::lineCount(result.err) == 1);
  CHECK_THAT(result.err, Contains("no device ran wide to the end"));
  CHECK_THAT(result.out, Contains("RUN_ERROR") && Contains("over the device's largest allocation"));
}

TEST_CASE("cli validate --task coarsening runs every factor and judges the predicted one",
          "[cli][runtime][coarsening]") {
  const auto run = runCli("validate --task coarsening " + ourKernel("poly_eval.cl") +
                          " --gsize 8192 --runs 5 --platform cypress --json");
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const nlohmann::json out = nlohmann::json::parse(run.out);
  CHECK(out["kernel"] == "poly_eval");
  const int predicted = out["predicted"].get<int>();
  CHECK((predicted & (predicted - 1)) == 0);
  CHECK(predicted <= 32);
  REQUIRE_FALSE(out["devices"].empty());
  for (const auto& device : out["devices"]) {
    REQUIRE(device["factors"].size() == 6);
    double best = 0, chosen = 0, base = 0;
    for (const auto& factor : device["factors"]) {
      CHECK(factor["status"] == "OK");  // the coarsened outputs equal factor 1's
      const double ns = factor["kernel_ns"].get<double>();
      CHECK(ns > 0);
      if (best == 0 || ns < best) best = ns;
      if (factor["factor"] == predicted) chosen = ns;
      if (factor["factor"] == 1) base = ns;
    }
    CHECK(device["speedup"].get<double>() == Approx(base / chosen));
    CHECK(device["of_oracle"].get<double>() == Approx(best / chosen));
    CHECK(device["of_oracle"].get<double>() <= 1.0);
  }

  const auto text =
      runCli("validate --task coarsening " + ourKernel("poly_eval.cl") + " --gsize 8192 --runs 5");
  CHECK(text.exitCode == 0);
  CHECK_THAT(text.out, Contains("predicted  factor"));
  CHECK_THAT(text.out, Contains("over factor 1"));
}

TEST_CASE("cli validate --task coarsening: bad input exits 2 with one line", "[cli][coarsening]") {
  for (const std::string& bad :
       {ourKernel("reduce_sum.cl") + " --gsize 4096",  // barriers: refused with the line
        ourKernel("saxpy.cl") + " --gsize 4096 --wgsize 100",
        ourKernel("saxpy.cl") + " --gsize 4096 --platform bogus",
        ourKernel("saxpy.cl") + " --gsize 0"}) {
    const auto run = runCli("validate --task coarsening " + bad);
    INFO(bad << ": " << run.err);
    CHECK(run.exitCode == 2);
    CHECK(deeptune::test::lineCount(run.err) == 1);
  }
  const auto refused =
      runCli("validate --task coarsening " + ourKernel("reduce_sum.cl") + " --gsize 4096");
  CHECK_THAT(refused.err, Contains("reduce_sum.cl:9:3: cannot coarsen"));
}
