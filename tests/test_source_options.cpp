// SourceOptions: the host's -D/-I, validated, read from and written as OpenCL build flags.
#include <catch2/catch.hpp>

#include "data/data_error.hpp"
#include "data/source_options.hpp"
#include "tests/scratch_dir.hpp"

using deeptune::data::makeSourceOptions;
using deeptune::data::SourceOptions;
using deeptune::data::sourceOptionsFromBuildFlags;

TEST_CASE("source options: defines and folders are validated", "[data][source-options]") {
  deeptune::test::ScratchDir dir("deeptune-source-options");
  const std::string folder = dir.path.string();
  const SourceOptions ok = makeSourceOptions({"N_GP=8", "USE_FAST", "_T=float4"}, {folder});
  CHECK(ok.defines.size() == 3);
  CHECK(ok.buildFlags() == "-D N_GP=8 -D USE_FAST -D _T=float4 -I " + folder);
  CHECK(SourceOptions().buildFlags().empty());
  struct Bad {
    std::vector<std::string> defines, dirs;
    const char* message;
  };
  const Bad bad[] = {
      {{"1X"}, {}, "expected NAME or NAME=VALUE"},
      {{"=3"}, {}, "expected NAME or NAME=VALUE"},
      {{"A-B=1"}, {}, "expected NAME or NAME=VALUE"},
      {{"A=b c"}, {}, "spaces, quotes"},
      {{"A=\"x\""}, {}, "spaces, quotes"},
      {{""}, {}, "empty value"},
      {{}, {folder + "/absent"}, "no such folder"},
      {{}, {dir.file("file.h", "x")}, "not a folder"},
  };
  for (const Bad& b : bad) {
    INFO(b.message);
    CHECK_THROWS_WITH(makeSourceOptions(b.defines, b.dirs), Catch::Contains(b.message));
    CHECK_THROWS_AS(makeSourceOptions(b.defines, b.dirs), deeptune::data::DataError);
  }
}

TEST_CASE("source options: -D and -I are read from an OpenCL build string",
          "[data][source-options]") {
  deeptune::test::ScratchDir dir("deeptune-source-flags");
  const std::string folder = dir.path.string();
  const SourceOptions read = sourceOptionsFromBuildFlags(
      "-cl-fast-relaxed-math -DN=8 -D BLOCK -I " + folder + " -I" + folder + " -cl-mad-enable");
  CHECK(read.defines == std::vector<std::string>{"N=8", "BLOCK"});
  CHECK(read.includeDirs == std::vector<std::string>{folder, folder});
  CHECK(sourceOptionsFromBuildFlags(read.buildFlags()) == read);  // round trip
  CHECK(sourceOptionsFromBuildFlags("").empty());
  CHECK_THROWS_WITH(sourceOptionsFromBuildFlags("-DN=8 -D"), Catch::Contains("-D at the end"));
  CHECK_THROWS_AS(sourceOptionsFromBuildFlags("-DN=8 -D"), deeptune::data::DataError);
  // No position: the message alone, as the CLI and the launches reader show it.
  CHECK_THROWS_WITH(sourceOptionsFromBuildFlags("-I"), "-I at the end of the build options");
  CHECK_THROWS_WITH(sourceOptionsFromBuildFlags("-D9=1"), Catch::Contains("expected NAME"));
}
