// CLI conventions: --version, help CMD, positional arguments in help, - for standard input.
#include <catch2/catch.hpp>

#include <sstream>

#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using deeptune::test::runCli;
using deeptune::test::ScratchDir;

TEST_CASE("cli: --version names the versions and where the bundled models are", "[cli]") {
  const auto result = runCli("--version");
  CHECK(result.exitCode == 0);
  CHECK_THAT(result.out, StartsWith("deeptune 0.") && Contains("Clang/LLVM 15.") &&
                             Contains("LibTorch 1.") && Contains("bundled models: /"));
  CHECK_THAT(result.out, !Contains("not found"));
}

TEST_CASE("cli: help CMD is CMD --help, for every command", "[cli]") {
  // Issue 45: every command, and the tasks whose options differ (help CMD --task coarsening).
  for (const std::string command :
       {"predict", "rewrite", "coarsen", "tokenize", "vocab", "measure", "validate", "train",
        "evaluate", "pretrain", "devices", "upgrade-model", "predict --task coarsening",
        "measure --task coarsening", "validate --task coarsening", "train --task coarsening",
        "evaluate --task coarsening"}) {
    INFO(command);
    const auto help = runCli("help " + command);
    const auto direct = runCli(command + " --help");
    CHECK(help.exitCode == 0);
    CHECK_THAT(help.out, StartsWith("usage: deeptune " + command.substr(0, command.find(' '))));
    CHECK(help.out == direct.out);
  }
  CHECK(runCli("help evaluate --task coarsening").out != runCli("help evaluate").out);
  // What --dsize means is said where a user reads it (issue 45): inputs once, outputs twice.
  CHECK_THAT(runCli("help predict").out, Contains("each input buffer once"));
  CHECK_THAT(runCli("help evaluate").out, Contains("help evaluate --task coarsening"));
  // Every method a command accepts is named in its help: the accepted ones are those its error
  // for an unknown method lists.
  const std::string data = deeptune::test::paperDataDir();
  ScratchDir dir("deeptune-cli-help-methods");
  const std::string out = (dir.path / "x").string();
  const struct {
    std::string help, unknown;
  } commands[] = {
      {"evaluate", "evaluate --data '" + data +
                       "/cgo17-amd.csv' --protocol kernel --methods bogus "
                       "--report '" +
                       out + "'"},
      {"evaluate --task coarsening", "evaluate --task coarsening --data '" + data +
                                         "/pact-2014-runtimes.csv' --methods bogus "
                                         "--report '" +
                                         out + "'"},
      {"train", "train --data '" + data + "/cgo17-amd.csv' --method bogus -o '" + out + "'"},
      {"train --task coarsening", "train --task coarsening --platform Tahiti --data '" + data +
                                      "/pact-2014-runtimes.csv' --method bogus -o '" + out + "'"}};
  for (const auto& command : commands) {
    INFO(command.help);
    const auto refused = runCli(command.unknown);
    REQUIRE(refused.exitCode == 2);
    const size_t open = refused.err.rfind('('), close = refused.err.rfind(')');
    REQUIRE(open != std::string::npos);
    REQUIRE(close > open);
    const std::string help = runCli("help " + command.help).out;
    size_t methods = 0;
    std::stringstream list(refused.err.substr(open + 1, close - open - 1));
    for (std::string method; std::getline(list, method, ',');) {
      method.erase(0, method.find_first_not_of(' '));
      CHECK_THAT(help, Contains(method));
      ++methods;
    }
    CHECK(methods >= 2);
  }
  // Positional arguments are in the usage line, not listed as options.
  CHECK_THAT(runCli("help predict").out, !Contains("--file"));
  CHECK(runCli("help nonsense").exitCode == 2);
  CHECK_THAT(runCli("--help").out, Contains("DEEPTUNE_MODELS") && Contains("help CMD"));
}

TEST_CASE("cli: - reads the kernel from standard input", "[cli]") {
  deeptune::test::ScratchDir dir("deeptune-cli-stdin");
  const std::string kernel = dir.file("k.cl", "__kernel void k(__global int* a) { a[0] = 1; }\n");
  const auto fromFile = runCli("rewrite '" + kernel + "'");
  const auto fromStdin = runCli("rewrite - < '" + kernel + "'");
  CHECK(fromStdin.exitCode == 0);
  CHECK(fromStdin.out == fromFile.out);
  const auto predicted = runCli("predict - --dsize 4096 --wgsize 64 --json < '" + kernel + "'");
  CHECK(predicted.exitCode == 0);
  CHECK_THAT(predicted.out, Contains("\"file\":\"<stdin>\""));
  // Bad input on standard input is named as such.
  const std::string bad = dir.file("bad.cl", "__kernel void k( {\n");
  const auto failed = runCli("rewrite - < '" + bad + "'");
  CHECK(failed.exitCode == 2);
  CHECK_THAT(failed.err, StartsWith("deeptune: <stdin>:"));
}

TEST_CASE("cli: platform names in any case", "[cli]") {
  const std::string kernel = deeptune::test::sourceDir() + "/kernels/vector_add.cl";
  const std::string sizes = " --dsize 4194304 --wgsize 256 --json";
  const auto lower = runCli("predict '" + kernel + "'" + sizes + " --platform nvidia");
  const auto upper = runCli("predict '" + kernel + "'" + sizes + " --platform NVIDIA");
  CHECK(upper.exitCode == 0);
  CHECK(upper.out == lower.out);
  CHECK(runCli("predict --task coarsening '" + kernel + "' --platform TAHITI").exitCode == 0);
}
