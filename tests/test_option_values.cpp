// Run option values of measure and validate (data/option_values.hpp) and the OpenCL build flags
// of a kernel file (data::openClBuildFlags): the messages the CLI prints, exit code 2.
#include <catch2/catch.hpp>
#include <filesystem>

#include "data/data_error.hpp"
#include "data/option_values.hpp"
#include "data/source_options.hpp"
#include "tests/scratch_dir.hpp"

namespace data = deeptune::data;
using Sizes = std::vector<size_t>;

TEST_CASE("option values: size lists", "[data][option-values]") {
  CHECK(data::parseSizeList("4", "measure: --gsize", 8) == Sizes{4});
  CHECK(data::parseSizeList("1,8,2", "measure: --gsize", 8) == Sizes{1, 8, 2});
  CHECK(data::parseSizeList("2147483648", "measure: --gsize", size_t{1} << 31) ==
        Sizes{size_t{1} << 31});
  const std::pair<const char*, const char*> bad[] = {
      {"", "''"},   {"0", "'0'"},   {"1,x", "'x'"}, {"-3", "'-3'"},
      {"9", "'9'"}, {"1,,2", "''"}, {"4 ", "'4 '"}, {"99999999999999999999", "'9999"},
  };
  for (const auto& [text, item] : bad) {
    INFO(text);
    CHECK_THROWS_AS(data::parseSizeList(text, "measure: --gsize", 8), data::DataError);
    CHECK_THROWS_WITH(data::parseSizeList(text, "measure: --gsize", 8),
                      Catch::StartsWith(std::string("measure: --gsize: ") + item));
  }
  CHECK_THROWS_WITH(data::parseSizeList("0", "measure: --gsize", 8),
                    "measure: --gsize: '0' is not a size (positive integers up to 8, "
                    "comma-separated)");
}

TEST_CASE("option values: coarsening factors", "[data][option-values]") {
  CHECK(data::parseFactorList("1,2,4,8,16,32") == Sizes{1, 2, 4, 8, 16, 32});
  CHECK(data::parseFactorList("4,1") == Sizes{4, 1});
  CHECK_THROWS_WITH(data::parseFactorList("1,3"),
                    "measure: --factors: 3 is not one of 1, 2, 4, 8, 16, 32");
  CHECK_THROWS_WITH(data::parseFactorList("2,4"),
                    "measure: --factors must include 1 (speedups are over factor 1)");
  CHECK_THROWS_WITH(data::parseFactorList("1,2,2"), "measure: --factors lists a factor twice");
  CHECK_THROWS_WITH(data::parseFactorList("1,64"),
                    "measure: --factors: '64' is not a size (positive integers up to 32, "
                    "comma-separated)");
  CHECK_THROWS_AS(data::parseFactorList("2"), data::DataError);
}

TEST_CASE("option values: run option limits", "[data][option-values]") {
  CHECK_NOTHROW(data::checkRunOptions("measure", 60, 6, 0));
  CHECK_NOTHROW(data::checkRunOptions("validate", 86400, 0, 1 << 20));
  CHECK_NOTHROW(data::checkRunOptions("measure", 0.5, 1000, 256));
  CHECK_THROWS_WITH(data::checkRunOptions("measure", 0, 6, 0),
                    "measure: --timeout must be between 0 and 86400 seconds");
  CHECK_THROWS_WITH(data::checkRunOptions("validate", 86401, 6, 0),
                    "validate: --timeout must be between 0 and 86400 seconds");
  CHECK_THROWS_WITH(data::checkRunOptions("measure", 60, 4, 0),
                    "measure: --runs must be between 5 and 1000");
  CHECK_THROWS_WITH(data::checkRunOptions("measure", 60, 1001, 0),
                    "measure: --runs must be between 5 and 1000");
  CHECK_THROWS_WITH(data::checkRunOptions("validate", 60, 0, -1),
                    "validate: --wgsize must be between 0 (automatic) and 1048576");
  CHECK_THROWS_WITH(data::checkRunOptions("validate", 60, 0, (1 << 20) + 1),
                    "validate: --wgsize must be between 0 (automatic) and 1048576");
  CHECK_THROWS_AS(data::checkRunOptions("measure", -1, 6, 0), data::DataError);

  CHECK_NOTHROW(data::checkGlobalSize("validate", 1));
  CHECK_NOTHROW(data::checkGlobalSize("validate", size_t{1} << 31));
  CHECK_THROWS_WITH(data::checkGlobalSize("validate", 0),
                    "validate: --gsize must be between 1 and 2^31");
  CHECK_THROWS_WITH(data::checkGlobalSize("validate", (size_t{1} << 31) + 1),
                    "validate: --gsize must be between 1 and 2^31");

  CHECK_NOTHROW(data::checkFactorWorkGroupSize(0, {1, 2, 32}));
  CHECK_NOTHROW(data::checkFactorWorkGroupSize(64, {1, 2, 32}));
  CHECK_THROWS_WITH(data::checkFactorWorkGroupSize(6, {1, 4}),
                    "measure: --wgsize 6 is not a multiple of the factor 4");
}

TEST_CASE("option values: nothing given twice", "[data][option-values]") {
  CHECK_NOTHROW(data::checkDistinctSizes({1, 2, 3}, "measure: --gsize"));
  CHECK_THROWS_WITH(data::checkDistinctSizes({4, 8, 4}, "measure: --gsize"),
                    "measure: --gsize lists 4 twice (its rows would be written twice)");

  deeptune::test::ScratchDir dir("deeptune-option-values");
  const std::string a = dir.file("a.cl", "kernel void a() {}");
  const std::string b = dir.file("b.cl", "kernel void b() {}");
  std::filesystem::create_symlink(a, dir.path / "link.cl");
  const std::string link = (dir.path / "link.cl").string();
  const std::string dotted = (dir.path / "." / "a.cl").string();
  CHECK_NOTHROW(data::checkDistinctFiles({a, b, "-", "-", dir.path.string() + "/absent.cl"}));
  CHECK_THROWS_WITH(data::checkDistinctFiles({a, b, link}),
                    "measure: " + a + " and " + link +
                        " are the same file (its kernels would be measured twice); give it once");
  CHECK_THROWS_AS(data::checkDistinctFiles({dotted, b, a}), data::DataError);
}

TEST_CASE("source options: the OpenCL build flags of a kernel file", "[data][source-options]") {
  deeptune::test::ScratchDir dir("deeptune-build-flags");
  const std::string folder = std::filesystem::canonical(dir.path).string();
  std::filesystem::create_directories(dir.path / "inc");
  const data::SourceOptions options{{"N=8", "FAST"}, {folder + "/inc/../inc"}};
  CHECK(data::openClBuildFlags(options, folder + "/k.cl") ==
        "-D N=8 -D FAST -I " + folder + " -I " + folder + "/inc");
  CHECK(data::openClBuildFlags({}, folder + "/k.cl") == "-I " + folder);
  const std::string cwd = std::filesystem::current_path().lexically_normal().string();
  if (cwd.find_first_of(" \t") == std::string::npos) {
    // A file of the working folder: its folder is "." made absolute ("/cwd/.", normal "/cwd/").
    CHECK(data::openClBuildFlags({}, "k.cl") == "-I " + cwd + "/");
  }
  // A folder OpenCL would split at its space is left out.
  std::filesystem::create_directories(dir.path / "with space");
  CHECK(data::openClBuildFlags({{"N=1"}, {}}, folder + "/with space/k.cl") == "-D N=1");
}
