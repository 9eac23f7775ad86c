// End-to-end tests of `deeptune tokenize`: ids of the worked example, strict and skipping modes.
#include <unistd.h>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using deeptune::test::lineCount;
using deeptune::test::runCli;
using deeptune::test::ScratchDir;

namespace {

const char* kMemsetIds =
    "14 1 24 1 10 3 13 1 18 5 1 15 6 1 23 1 16 6 1 22 1 17 4 1 25 0 2 19 1 22 1 20 1 9 1 21 3 7 "
    "4 8 0 2 15 11 20 12 1 9 1 16 8 0 26\n";

}  // namespace

TEST_CASE("cli tokenize: the worked example prints the 53 ids", "[cli][tokenize]") {
  ScratchDir dir("deeptune-cli-tokenize");
  std::ifstream in(deeptune::test::conformanceDir() + "/02-expected.cl", std::ios::binary);
  std::string kernel((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(!kernel.empty());
  if (kernel.back() == '\n') kernel.pop_back();
  const std::string source = dir.file("memset.cl", kernel);
  const std::string vocab = (dir.path / "vocab.json").string();

  const auto derived = runCli("vocab derive '" + source + "' -o '" + vocab + "'");
  REQUIRE(derived.exitCode == 0);
  CHECK(derived.err.empty());

  const auto result = runCli("tokenize '" + source + "' --vocab '" + vocab + "' --strict");
  CHECK(result.exitCode == 0);
  CHECK(result.out == kMemsetIds);
  CHECK(result.err.empty());

  const auto json = runCli("tokenize '" + source + "' --vocab '" + vocab + "' --json");
  CHECK(json.exitCode == 0);
  CHECK_THAT(json.out, StartsWith("{\"ids\":[14,1,24,1,10,") && Contains("],\"skipped\":0}"));
}

TEST_CASE("cli tokenize: unknown characters (strict error, skipped count)", "[cli][tokenize]") {
  ScratchDir dir("deeptune-cli-tokenize-unknown");
  const std::string vocab = dir.file("vocab.json", "[\"\\n\", \" \", \"a\", \"b\", \"int\"]");
  const std::string source = dir.file("k.cl", "int a\nb @ a");

  const auto strict = runCli("tokenize '" + source + "' --vocab '" + vocab + "' --strict");
  CHECK(strict.exitCode == 2);
  CHECK(strict.out.empty());
  CHECK(lineCount(strict.err) == 1);
  CHECK_THAT(strict.err, Contains(source + ":2:3") && Contains("'@'"));

  const auto skipping = runCli("tokenize '" + source + "' --vocab '" + vocab + "'");
  CHECK(skipping.exitCode == 0);
  CHECK(skipping.out == "4 1 2 0 3 1 1 2\n");
  CHECK(lineCount(skipping.err) == 1);
  CHECK_THAT(skipping.err, Contains("skipped 1 character"));

  const auto json = runCli("tokenize '" + source + "' --vocab '" + vocab + "' --json");
  CHECK(json.exitCode == 0);
  CHECK(json.out == "{\"ids\":[4,1,2,0,3,1,1,2],\"skipped\":1}\n");
}

TEST_CASE("cli tokenize: bad input exits 2 with one line naming the file", "[cli][tokenize]") {
  ScratchDir dir("deeptune-cli-tokenize-bad");
  const std::string vocab = dir.file("vocab.json", "[\"a\", \"b\"]");
  const std::string source = dir.file("k.cl", "ab");
  const std::string binary = dir.file("bin.cl", std::string("a\0b", 3));
  const std::string badVocab = dir.file("bad.json", "{\"a\": 1}");
  const std::string missing = (dir.path / "missing.cl").string();

  const std::vector<std::pair<std::string, std::string>> cases = {
      {"tokenize '" + missing + "' --vocab '" + vocab + "'", missing},
      {"tokenize '" + source + "' --vocab '" + missing + "'", missing},
      {"tokenize '" + binary + "' --vocab '" + vocab + "'", binary},
      {"tokenize '" + source + "' --vocab '" + badVocab + "'", badVocab},
      {"tokenize '" + source + "'", "vocab"},
      {"tokenize --vocab '" + vocab + "'", "file"},
  };
  for (const auto& [arguments, named] : cases) {
    INFO(arguments);
    const auto result = runCli(arguments);
    CHECK(result.exitCode == 2);
    CHECK(result.out.empty());
    CHECK(lineCount(result.err) == 1);
    CHECK_THAT(result.err, Contains(named));
  }
}

TEST_CASE("cli tokenize: --help", "[cli][tokenize]") {
  const auto result = runCli("tokenize --help");
  CHECK(result.exitCode == 0);
  CHECK_THAT(result.out, Contains("usage: deeptune tokenize") && Contains("--vocab") &&
                             Contains("--strict") && Contains("--json"));
}

TEST_CASE("cli tokenize --rewrite: every kernel of a file, in source order, as predict reads it",
          "[cli][tokenize]") {
  ScratchDir dir("deeptune-cli-tokenize-kernels");
  const std::string vocab = "'" + deeptune::test::paperDataDir() + "/vocab-128.json'";
  const std::string file =
      dir.file("three.cl",
               "__kernel void zeta(__global float* a) {\n  a[get_global_id(0)] *= 2.0f;\n}\n"
               "__kernel void alpha(__global float* a, __global const float* b) {\n"
               "  int i = get_global_id(0);\n  a[i] = a[i] * b[i];\n}\n"
               "__kernel void mid(__global int* c) {\n  c[get_global_id(0)] += 1;\n}\n");
  const std::vector<std::string> order = {"zeta", "alpha", "mid"};
  const auto json = runCli("tokenize '" + file + "' --rewrite --json --vocab " + vocab);
  REQUIRE(json.exitCode == 0);
  const auto plain = runCli("tokenize '" + file + "' --rewrite --vocab " + vocab);
  REQUIRE(plain.exitCode == 0);
  const auto predicted =
      runCli("predict '" + file + "' --platform amd-deeptune --dsize 4096 --wgsize 64 --json");
  REQUIRE(predicted.exitCode == 0);
  std::vector<nlohmann::json> objects, decisions;
  std::vector<std::string> lines;
  for (const auto& [text, into] : {std::pair{json.out, &objects}, {predicted.out, &decisions}}) {
    size_t start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
      into->push_back(nlohmann::json::parse(text.substr(start, end - start)));
    }
  }
  size_t start = 0;
  for (size_t end; (end = plain.out.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(plain.out.substr(start, end - start));
  }
  REQUIRE(objects.size() == 3);
  REQUIRE(lines.size() == 3);
  REQUIRE(decisions.size() == 3);
  for (size_t i = 0; i < order.size(); ++i) {
    INFO(order[i]);
    CHECK(objects[i].at("kernel") == order[i]);
    CHECK(lines[i].rfind(order[i] + ": ", 0) == 0);  // several kernels: each line named
    // The ids of one kernel are --kernel's, and as many as the model reads.
    const auto one =
        runCli("tokenize '" + file + "' --rewrite --kernel " + order[i] + " --vocab " + vocab);
    REQUIRE(one.exitCode == 0);
    CHECK(lines[i] == order[i] + ": " + one.out.substr(0, one.out.size() - 1));
    CHECK(objects[i].at("ids").size() == decisions[i].at("tokens").get<size_t>());
  }
}
