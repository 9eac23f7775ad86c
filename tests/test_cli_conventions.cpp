// CLI conventions: --version, help CMD, positional arguments in help, - for standard input.
#include <catch2/catch.hpp>

#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using deeptune::test::runCli;

TEST_CASE("cli: --version names the versions and where the bundled models are", "[cli]") {
  const auto result = runCli("--version");
  CHECK(result.exitCode == 0);
  CHECK_THAT(result.out, StartsWith("deeptune 0.") && Contains("Clang/LLVM 15.") &&
                             Contains("LibTorch 1.") && Contains("bundled models: /"));
  CHECK_THAT(result.out, !Contains("not found"));
}

TEST_CASE("cli: help CMD is CMD --help, for every command", "[cli]") {
  for (const std::string command :
       {"predict", "rewrite", "measure", "train", "evaluate", "pretrain"}) {
    INFO(command);
    const auto help = runCli("help " + command);
    const auto direct = runCli(command + " --help");
    CHECK(help.exitCode == 0);
    CHECK_THAT(help.out, StartsWith("usage: deeptune " + command));
    CHECK(help.out == direct.out);
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
