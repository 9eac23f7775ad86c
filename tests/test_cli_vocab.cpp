// End-to-end tests of `deeptune vocab derive`: paper vocabulary from the CSV, files, bad input.
#include <unistd.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using deeptune::test::lineCount;
using deeptune::test::readWholeFile;
using deeptune::test::runCli;
using deeptune::test::ScratchDir;

TEST_CASE("cli vocab derive --csv cgo17-amd.csv gives vocab-128.json", "[cli][vocab]") {
  ScratchDir dir("deeptune-cli-vocab");
  const std::string csv = deeptune::test::paperDataDir() + "/cgo17-amd.csv";
  const std::string expectedPath = deeptune::test::paperDataDir() + "/vocab-128.json";
  const std::string out = (dir.path / "vocab.json").string();

  const auto result = runCli("vocab derive --csv '" + csv + "' --column src -o '" + out + "'");
  CHECK(result.exitCode == 0);
  CHECK(result.out.empty());
  CHECK(result.err.empty());
  const std::string written = readWholeFile(out);
  const auto tokens = nlohmann::json::parse(written);
  REQUIRE(tokens.is_array());
  CHECK(tokens.size() == 128);
  CHECK(tokens == nlohmann::json::parse(readWholeFile(expectedPath)));
  CHECK(written == readWholeFile(expectedPath));  // byte for byte

  // Default column is src; no -o writes to stdout.
  const auto toStdout = runCli("vocab derive --csv '" + csv + "'");
  CHECK(toStdout.exitCode == 0);
  CHECK(toStdout.out == written + "\n");
}

TEST_CASE("cli vocab derive: files are joined with a newline", "[cli][vocab]") {
  ScratchDir dir("deeptune-cli-vocab-files");
  const std::string a = dir.file("a.cl", "int x");
  const std::string b = dir.file("b.cl", "dot");
  const auto result = runCli("vocab derive '" + a + "' '" + b + "' -o -");
  CHECK(result.exitCode == 0);
  CHECK(nlohmann::json::parse(result.out) == nlohmann::json({"\n", " ", "do", "int", "t", "x"}));
}

TEST_CASE("cli vocab derive: bad input exits 2 with one line naming it", "[cli][vocab]") {
  ScratchDir dir("deeptune-cli-vocab-bad");
  const std::string text = dir.file("k.cl", "int a;");
  const std::string binary = dir.file("bin.cl", "int \xff;");
  const std::string csv = dir.file("t.csv", "benchmark,code\nx,int a;\n");
  const std::string missing = (dir.path / "missing.cl").string();
  const std::string out = (dir.path / "out.json").string();

  const std::vector<std::pair<std::string, std::string>> cases = {
      {"vocab derive '" + missing + "' -o '" + out + "'", missing},
      {"vocab derive '" + text + "' '" + binary + "' -o '" + out + "'", binary},
      {"vocab derive --csv '" + missing + "' -o '" + out + "'", missing},
      {"vocab derive --csv '" + csv + "' -o '" + out + "'", "src"},
      {"vocab derive --csv '" + csv + "' --column nope -o '" + out + "'", "nope"},
      {"vocab derive -o '" + out + "'", "--csv"},
      {"vocab derive '" + text + "' --csv '" + csv + "'", "--csv"},
      {"vocab frobnicate '" + text + "'", "frobnicate"},
      {"vocab", "derive"},
  };
  for (const auto& [arguments, named] : cases) {
    INFO(arguments);
    const auto result = runCli(arguments);
    CHECK(result.exitCode == 2);
    CHECK(result.out.empty());
    CHECK(lineCount(result.err) == 1);
    CHECK_THAT(result.err, Contains(named));
  }
  CHECK(!std::filesystem::exists(out));

  const auto ok = runCli("vocab derive --csv '" + csv + "' --column code");
  CHECK(ok.exitCode == 0);
  CHECK(nlohmann::json::parse(ok.out) == nlohmann::json({" ", ";", "a", "int"}));
}

TEST_CASE("cli vocab: --help", "[cli][vocab]") {
  for (const std::string arguments : {"vocab --help", "vocab derive --help"}) {
    const auto result = runCli(arguments);
    CHECK(result.exitCode == 0);
    CHECK_THAT(result.out, Contains("usage: deeptune vocab derive") && Contains("--csv") &&
                               Contains("--column") && Contains("--output"));
  }
}
