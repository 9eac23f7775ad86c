// The bad-input catalogue: for every command, the usual mistakes answer with exit code 2 and one
// line on stderr naming what is wrong, within seconds and 1 GiB of memory.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>

#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using deeptune::test::lineCount;
using deeptune::test::runCli;
using deeptune::test::ScratchDir;

TEST_CASE("cli bad input: every command, the usual mistakes", "[cli][bad-input]") {
  ScratchDir dir("deeptune-cli-bad-input");
  const std::string d = dir.path.string();
  const std::string data = deeptune::test::paperDataDir();
  const std::string vocab = "'" + data + "/vocab-128.json'";
  const std::string kernel =
      dir.file("k.cl", "__kernel void k(__global int* a) {\n  a[0] = 1;\n}\n");
  const std::string empty = dir.file("empty.cl", "");
  const std::string binary = dir.file("binary.cl", std::string("__kernel\0void", 13));
  const std::string badCsv = dir.file("bad.csv", "x,y\n1,2\n");
  const std::string textCsv = dir.file("text.csv", "not,a\n\"broken\n");
  const std::string missing = d + "/absent";
  std::string exponential = "#define A(x) x x\n__kernel void k(__global int* a) { a[0] = ";
  for (int i = 0; i < 40; ++i) exponential += "A(";
  exponential += "1" + std::string(40, ')') + "; }\n";
  const std::string macroBomb = dir.file("bomb.cl", exponential);
  // Under the token bound, but clang-format needed 2 GiB and 15 s to break this line.
  // f is declared nowhere (a variadic prototype does not compile in OpenCL C).
  std::string call = "int g(int x);\n__kernel void k(__global int* a) { a[0] = f(1";
  for (int i = 0; i < 3900; ++i) call += ",1";
  const std::string wideCall = dir.file("wide.cl", call + "); }\n");
  // Input Clang 15 itself crashes on (tests/test_rewrite_errors.cpp): an error, exit 2.
  const std::string clangCrash =
      dir.file("clang-crash.cl", " h = ; g =;\n O(r[h][g][0], o);O(r[h][g],o)\n {\n");
  std::filesystem::create_directories(dir.path / "inner");
  const std::string escape = dir.file(
      "inner/escape.cl", "#include \"../k.cl\"\n__kernel void e(__global int* a) { a[0] = 2; }\n");
  struct Case {
    std::string arguments;
    const char* message;  ///< a part of the one-line error
  };
  const Case cases[] = {
      // Input files: missing, a directory, empty, binary.
      {"rewrite '" + missing + ".cl'", "cannot open file"},
      {"rewrite '" + d + "'", "is a directory"},
      {"rewrite '" + empty + "'", "empty input"},
      {"rewrite '" + binary + "'", "not OpenCL text"},
      {"tokenize '" + missing + ".cl' --vocab " + vocab, "cannot open file"},
      {"tokenize '" + kernel + "' --vocab '" + d + "'", "is a directory"},
      {"tokenize '" + binary + "' --vocab " + vocab, "NUL"},
      {"predict '" + d + "' --dsize 1 --wgsize 1", "is a directory"},
      {"predict '" + empty + "' --dsize 1 --wgsize 1", "empty input"},
      {"measure '" + missing + ".cl' --gsize 64 -o '" + d + "/o.csv'", "cannot open file"},
      {"validate '" + missing + ".cl' --gsize 64", "cannot open file"},
      // Kernels that would make the rewriter hang or read what is not theirs.
      {"rewrite '" + macroBomb + "'", "macro 'A' expands to more than"},
      {"predict '" + macroBomb + "' --dsize 1 --wgsize 1", "macro 'A' expands to more than"},
      {"rewrite '" + escape + "'", "outside the kernel file's folder"},
      {"rewrite '" + wideCall + "'", "wide.cl:2:35: too complex to normalize"},
      {"rewrite '" + clangCrash + "'", "clang-crash.cl:1:1: the normalizer crashed on this input"},
      {"predict '" + clangCrash + "' --dsize 1 --wgsize 1", "the normalizer crashed on this input"},
      {"coarsen '" + kernel + "' --factor 1", "coarsening factor 1: expected 2 to 1024"},
      {"predict --task coarsening '" + kernel + "' --platform arm", "unknown --platform 'arm'"},
      {"predict --task coarsening '" + kernel + "' --model '" + deeptune::test::sourceDir() +
           "/models/devmap-amd.model'",
       "expected a coarsening (thread coarsening) model"},
      {"predict --task coarsening '" + kernel + "' --dsize 1", "are for --task devmap"},
      {"predict --task nope '" + kernel + "'", "unknown --task 'nope'"},
      {"predict '" + kernel + "' --dsize 1", "--dsize and --wgsize are required"},
      // Issue 45: no file is named as such, not as missing sizes.
      {"predict", "predict: no kernel file given"},
      {"predict --dsize 1 --wgsize 1", "predict: no kernel file given"},
      {"coarsen '" + kernel + "' --factor x", "factor"},
      {"coarsen '" + kernel + "' --factor 2 --kernel nope", "no kernel named 'nope'"},
      {"coarsen '" + missing + ".cl' --factor 2", "cannot open file"},
      {"predict '" + wideCall + "' --dsize 1 --wgsize 1", "too complex to normalize"},
      // CSV inputs: missing, wrong header, broken quoting.
      {"train --data '" + missing + ".csv' -o '" + d + "/m.model'", "cannot open file"},
      {"train --data '" + badCsv + "' -o '" + d + "/m.model'", "bad.csv:1:"},
      {"train --data '" + textCsv + "' -o '" + d + "/m.model'", "text.csv:2:"},
      {"evaluate --data '" + badCsv + "' --protocol kernel --report '" + d + "/r'", "bad.csv:1:"},
      {"vocab derive --csv '" + badCsv + "' -o '" + d + "/v.json'", "bad.csv:1:"},
      {"measure --csv '" + badCsv + "' --gsize 64 -o '" + d + "/o.csv'", "bad.csv:1:"},
      // Unknown task, platform, method.
      {"train --task nope --data '" + data + "/cgo17-amd.csv' -o '" + d + "/m.model'",
       "unknown --task"},
      {"evaluate --task nope --data '" + data + "/cgo17-amd.csv' --report '" + d + "/r'",
       "unknown --task"},
      {"evaluate --methods magic --data '" + data + "/cgo17-amd.csv' --protocol kernel --report '" +
           d + "/r'",
       "unknown method 'magic'"},
      {"predict '" + kernel + "' --dsize 1 --wgsize 1 --platform arm", "unknown --platform"},
      {"validate '" + kernel + "' --gsize 64 --platform arm", "unknown --platform"},
      // A model file that is something else.
      {"predict '" + kernel + "' --dsize 1 --wgsize 1 --model '" + kernel + "'",
       "not a deeptune model file"},
      {"predict '" + kernel + "' --dsize 1 --wgsize 1 --model '" + missing + "'",
       "cannot open file"},
      // A kernel name the file does not define.
      {"predict '" + kernel + "' --dsize 1 --wgsize 1 --kernel nope", "no kernel named 'nope'"},
      {"rewrite '" + kernel + "' --kernel nope", "no kernel named 'nope'"},
      {"measure '" + kernel + "' --kernel nope --gsize 64 -o '" + d + "/o.csv'",
       "no kernel named 'nope'"},
      {"validate '" + kernel + "' --kernel nope --gsize 64", "no kernel named 'nope'"},
      // Unknown command and option.
      {"frobnicate", "unknown command"},
      {"rewrite '" + kernel + "' --frobnicate", "frobnicate"},
  };
  for (const Case& c : cases) {
    const auto started = std::chrono::steady_clock::now();
    const auto result = deeptune::test::runCliWithin1GiB(c.arguments);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    INFO(c.arguments << "\n-> " << result.err);
    CHECK(result.exitCode == 2);
    CHECK(lineCount(result.err) == 1);
    CHECK_THAT(result.err, Contains(c.message));
    CHECK(seconds < 10);
  }
  CHECK(!std::filesystem::exists(d + "/m.model"));  // nothing half-written
  CHECK(!std::filesystem::exists(d + "/o.csv"));
}
