// End-to-end tests of `deeptune rewrite`: the built binary on conformance cases and bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using deeptune::test::cliPath;
using deeptune::test::lineCount;
using deeptune::test::readWholeFile;
using deeptune::test::runCli;
using deeptune::test::ScratchDir;
using deeptune::test::sourceDir;

TEST_CASE("cli rewrite reproduces the full-pipeline conformance cases", "[cli][rewrite]") {
  for (const std::string number : {"01", "02", "03", "04"}) {
    const std::string dir = deeptune::test::conformanceDir();
    const auto result = runCli("rewrite '" + dir + "/" + number + "-input.cl'");
    INFO("case " << number << ": " << result.err);
    REQUIRE(result.exitCode == 0);
    std::string expected = readWholeFile(dir + "/" + number + "-expected.cl");
    if (expected.empty() || expected.back() != '\n') expected += '\n';
    CHECK(result.out == expected);
    CHECK(result.err.empty());
  }
}

TEST_CASE("cli rewrite --kernel extracts one kernel; -o writes the file", "[cli][rewrite]") {
  ScratchDir dir("deeptune-cli-rewrite");
  const std::string source = dir.file(
      "two.cl",
      "float twice(float v) { return 2 * v; }\n"
      "__kernel void scale(__global float* x) { x[get_global_id(0)] = twice(x[0]); }\n"
      "__kernel void zero(__global float* y, int n) { if (get_global_id(0) < n) y[0] = 0; }\n");
  const std::string output = (dir.path / "zero.cl").string();
  const auto result = runCli("rewrite '" + source + "' --kernel zero -o '" + output + "'");
  REQUIRE(result.exitCode == 0);
  CHECK(result.out.empty());
  CHECK(readWholeFile(output) ==
        "__kernel void A(__global float* a, int b) {\n  if (get_global_id(0) < b)\n"
        "    a[0] = 0;\n}\n");

  const auto ambiguous = runCli("rewrite '" + source + "' --kernel ''");
  CHECK(ambiguous.exitCode == 2);
  CHECK_THAT(ambiguous.err, Contains("scale, zero"));

  const auto whole = runCli("rewrite '" + source + "'");
  REQUIRE(whole.exitCode == 0);
  CHECK_THAT(whole.out, StartsWith("float A(float a) {\n"));
  CHECK_THAT(whole.out, Contains("__kernel void B(__global float* b) {"));
  CHECK_THAT(whole.out, Contains("__kernel void C(__global float* c, int d) {"));
}

TEST_CASE("cli rewrite --all-kernels: every kernel, and the corpus script's pass table",
          "[cli][rewrite]") {
  ScratchDir dir("deeptune-cli-all-kernels");
  const std::string two =
      "float twice(float v) { return 2 * v; }\n"
      "__kernel void scale(__global float* x) { x[get_global_id(0)] = twice(x[0]); }\n"
      "__kernel void zero(__global float* y, int n) { if (get_global_id(0) < n) y[0] = 0; }\n";
  const std::string source = dir.file("two.cl", two);
  const auto all = runCli("rewrite --all-kernels --json '" + source + "'");
  REQUIRE(all.exitCode == 0);
  CHECK_THAT(all.out, StartsWith("{\"file\":"));
  CHECK_THAT(all.out, Contains("\"kernel\":\"scale\"") && Contains("\"kernel\":\"zero\""));
  const auto zero = runCli("rewrite --kernel zero '" + source + "'");
  CHECK_THAT(all.out, Contains(nlohmann::json(zero.out.substr(0, zero.out.size() - 1)).dump()));
  CHECK(runCli("rewrite --all-kernels --kernel zero '" + source + "'").exitCode == 2);
  const auto files =
      runCli("rewrite --all-kernels --output-dir '" + dir.path.string() + "' '" + source + "'");
  REQUIRE(files.exitCode == 0);
  CHECK(readWholeFile((dir.path / "two.zero.cl").string()) == zero.out);

  // A corpus of three files: two kernels, a missing header, and the first file again.
  const std::filesystem::path corpus = dir.path / "corpus";
  std::filesystem::create_directories(corpus / "me+repo" / "src");
  std::ofstream(corpus / "me+repo" / "src" / "two.cl") << two;
  std::ofstream(corpus / "me+repo" / "src" / "again.cl") << two;
  std::ofstream(corpus / "me+repo" / "src" / "lost.cl")
      << "#include \"nowhere.h\"\n__kernel void k(__global int* a) { a[0] = 1; }\n";
  std::ofstream(corpus / "MANIFEST.csv")
      << "repository,commit,path,license,bytes,kernels,sha256\n"
      << "me/repo,0,src/again.cl,MIT,1,2,0\nme/repo,0,src/lost.cl,MIT,1,1,0\n"
      << "me/repo,0,src/two.cl,MIT,1,2,0\n";
  const std::string out = (dir.path / "normalized").string();
  const std::string script = "/usr/bin/python3 '" + sourceDir() + "/scripts/normalize-corpus.py'" +
                             " --corpus '" + corpus.string() + "' --data '" + dir.path.string() +
                             "' --deeptune '" + cliPath() + "' --out '" + out + "' 2>/dev/null";
  REQUIRE(std::system(script.c_str()) == 0);
  const std::string table = readWholeFile(out + "/files.csv");
  CHECK_THAT(table, Contains("me/repo,src/again.cl,passed,2,0,0,,"));
  CHECK_THAT(table, Contains("me/repo,src/lost.cl,failed,0,0,0,missing header"));
  CHECK_THAT(table, Contains("me/repo,src/two.cl,passed,0,2,0,,"));  // duplicates dropped
  CHECK(readWholeFile(out + "/kernels/me+repo/src/again.cl.zero.cl") == zero.out);
  CHECK_THAT(readWholeFile(out + "/summary.md"),
             Contains("| **all** | 3 | 2 | 66.7% | 2 | 2 | 0 |"));
}

TEST_CASE("cli rewrite: bad input exits 2 with one line naming the file", "[cli][rewrite]") {
  ScratchDir dir("deeptune-cli-rewrite-bad");
  const std::string output = (dir.path / "out.cl").string();
  struct BadInput {
    const char* name;
    std::string content;
    const char* message;
  };
  const BadInput inputs[] = {
      {"empty.cl", "", ":1:1: empty input"},
      {"blank.cl", "  \n\n", ":1:1: empty input"},
      {"binary.cl", std::string("__kernel\0void", 13), ":1:9: not OpenCL text: NUL byte"},
      {"latin1.cl", "// caf\xe9\n__kernel void A() {}\n", ":1:7: not OpenCL text"},
      {"include.cl", "#include \"gone.h\"\n__kernel void A() { int a; }\n",
       ":1:10: 'gone.h' file not found"},
      {"nofunction.cl", "__constant int table[2] = {1, 2};\n", "no function definition"},
      {"syntax.cl", "__kernel void A(__global int* a {\n", ":1:"},
      {"short.cl", "__kernel void A() {}\n", "no code"},
  };
  for (const BadInput& input : inputs) {
    const std::string path = dir.file(input.name, input.content);
    const auto result = runCli("rewrite '" + path + "' -o '" + output + "'");
    INFO(input.name << ": " << result.err);
    CHECK(result.exitCode == 2);
    CHECK(lineCount(result.err) == 1);
    CHECK_THAT(result.err, StartsWith("deeptune: " + path));
    CHECK_THAT(result.err, Contains(input.message));
    CHECK_FALSE(std::filesystem::exists(output));  // nothing half-written
  }
  const auto missing = runCli("rewrite '" + (dir.path / "absent.cl").string() + "'");
  CHECK(missing.exitCode == 2);
  CHECK_THAT(missing.err, Contains("absent.cl:1:1: cannot open file"));
  const auto usage = runCli("rewrite");
  CHECK(usage.exitCode == 2);
  CHECK(lineCount(usage.err) == 1);
}

TEST_CASE("cli rewrite --help and deeptune --help describe the command", "[cli][rewrite]") {
  const auto help = runCli("rewrite --help");
  CHECK(help.exitCode == 0);
  CHECK_THAT(help.out, Contains("--kernel"));
  const auto top = runCli("--help");
  CHECK(top.exitCode == 0);
  CHECK_THAT(top.out, Contains("rewrite") && Contains("tokenize") && Contains("vocab"));
}

TEST_CASE("cli rewrite: a corrupt cached PCH is rebuilt; a shared cache folder is not used",
          "[cli][rewrite]") {
  ScratchDir dir("deeptune-cli-rewrite-cache");
  const std::string kernel = deeptune::test::sourceDir() + "/kernels/saxpy.cl";
  const std::string cache = (dir.path / "cache").string();
  const std::string env = "XDG_CACHE_HOME='" + cache + "' ";
  const auto first = runCli("rewrite '" + kernel + "'");
  REQUIRE(first.exitCode == 0);
  std::string cli = deeptune::test::cliPath();
  const auto run = [&](const std::string& prefix) {
    const std::string out = (dir.path / "out").string(), err = (dir.path / "err").string();
    const int status = std::system(
        (prefix + "'" + cli + "' rewrite '" + kernel + "' >'" + out + "' 2>'" + err + "'").c_str());
    INFO(readWholeFile(err));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(readWholeFile(out) == first.out);
  };
  // The CLI beside the PCH built with the project: no process builds one, no cache folder.
  run(env);
  CHECK_FALSE(std::filesystem::exists(cache + "/deeptune"));
  // A copy of the CLI with no PCH beside it uses the cache folder.
  const std::filesystem::path libraries =
      std::filesystem::path(deeptune::test::cliPath()).parent_path().parent_path() / "lib";
  std::filesystem::create_directories(dir.path / "bin");
  std::filesystem::copy_file(deeptune::test::cliPath(), dir.path / "bin" / "deeptune");
  cli = (dir.path / "bin" / "deeptune").string();
  const std::string withLibraries = "LD_LIBRARY_PATH='" + libraries.string() + "' ";
  run(withLibraries + env);
  std::string pch;
  for (const auto& entry : std::filesystem::directory_iterator(cache + "/deeptune")) {
    if (entry.path().extension() == ".pch") pch = entry.path().string();
  }
  REQUIRE(!pch.empty());
  const auto size = std::filesystem::file_size(pch);
  std::filesystem::resize_file(pch, 1000);  // a full disk cut it short
  run(withLibraries + env);
  // Rebuilt whole (the PCH embeds its temporary file's name, so sizes may differ by a few bytes).
  CHECK(std::filesystem::file_size(pch) > size / 2);

  // A cache folder others may write is not trusted: nothing is written in it.
  const std::string shared = (dir.path / "shared").string();
  std::filesystem::create_directories(shared + "/deeptune");
  std::filesystem::permissions(shared + "/deeptune", std::filesystem::perms::all);
  run(withLibraries + "XDG_CACHE_HOME='" + shared + "' ");
  CHECK(std::filesystem::is_empty(shared + "/deeptune"));
}

TEST_CASE("cli -D and -I: the host's build options reach the rewriter and the OpenCL build",
          "[cli][rewrite][source-options]") {
  ScratchDir dir("deeptune-cli-host-options");
  std::filesystem::create_directories(dir.path / "src");
  std::filesystem::create_directories(dir.path / "include");
  dir.file("include/common.h", "#define BLOCK 16\n");
  dir.file("src/local.h", "#define SCALE 2\n");
  const std::string kernel = dir.file(
      "src/k.cl",
      "#include \"local.h\"\n#include \"common.h\"\n__kernel void scale(__global float* a) {\n"
      "  a[get_global_id(0)] = a[get_global_id(0)] * SCALE * N_GP + BLOCK;\n}\n");
  const std::string include = (dir.path / "include").string();
  const std::string expected =
      "__kernel void A(__global float* a) {\n  a[get_global_id(0)] = a[get_global_id(0)] * 2 * "
      "8 + 16;\n}\n";
  // Both spellings of each option; local.h comes from the kernel's own folder.
  for (const std::string& flags : {"-D N_GP=8 -I '" + include + "'", "-DN_GP=8 -I'" + include + "'",
                                   "--define N_GP=8 --include '" + include + "'"}) {
    const auto result = runCli("rewrite '" + kernel + "' " + flags);
    INFO(flags << " -> " << result.err);
    CHECK(result.exitCode == 0);
    CHECK(result.out == expected);
  }
  // Without -I the header is not found (it lies outside the kernel's folder).
  const auto missing = runCli("rewrite '" + kernel + "' -D N_GP=8");
  CHECK(missing.exitCode == 2);
  CHECK_THAT(missing.err, Contains("k.cl:2:10: 'common.h' file not found"));
  // A bad value is refused before any work, naming it.
  const auto bad = runCli("rewrite '" + kernel + "' -D 'N GP=8'");
  CHECK(bad.exitCode == 2);
  CHECK_THAT(bad.err, Contains("-D 'N GP=8': spaces"));

  // tokenize --rewrite encodes that same text.
  const std::string vocab = "'" + deeptune::test::paperDataDir() + "/vocab-128.json'";
  const std::string rewritten = dir.file(
      "rewritten.cl", expected.substr(0, expected.size() - 1));  // the text, no final newline
  const auto direct =
      runCli("tokenize '" + kernel + "' --rewrite -D N_GP=8 -I '" + include + "' --vocab " + vocab);
  const auto twoSteps = runCli("tokenize '" + rewritten + "' --vocab " + vocab);
  CHECK(direct.exitCode == 0);
  CHECK(direct.out == twoSteps.out);
  CHECK(runCli("tokenize '" + kernel + "' -D N_GP=8 --vocab " + vocab).exitCode == 2);

  // predict reads the same text; measure builds with the same options on the device.
  const auto predicted =
      runCli("predict '" + kernel + "' -D N_GP=8 -I '" + include + "' --dsize 4096 --wgsize 64");
  INFO(predicted.err);
  CHECK(predicted.exitCode == 0);
  CHECK_THAT(predicted.out, Contains("scale: "));
  const std::string out = (dir.path / "m.csv").string();
  const auto measured = runCli("measure '" + kernel + "' -D N_GP=8 -I '" + include +
                               "' --gsize 256 --timeout 60 -o '" + out + "'");
  INFO(measured.err);
  REQUIRE(measured.exitCode == 0);
  CHECK_THAT(readWholeFile(out), Contains(",OK,"));
  const std::string without = (dir.path / "without.csv").string();
  const auto unbuilt =
      runCli("measure '" + kernel + "' --gsize 256 --timeout 60 -o '" + without + "'");
  REQUIRE(unbuilt.exitCode == 0);
  CHECK_THAT(readWholeFile(without), Contains("BUILD_ERROR"));
}

TEST_CASE("cli rewrite/coarsen/tokenize: several files give one result each in input order",
          "[cli][rewrite]") {
  ScratchDir dir("deeptune-cli-rewrite-many");
  const std::string kernels = deeptune::test::sourceDir() + "/kernels/";
  const std::string files = "'" + kernels + "saxpy.cl' '" + kernels + "scale.cl'";
  const auto json = runCli("rewrite " + files + " --json");
  REQUIRE(json.exitCode == 0);
  CHECK(deeptune::test::lineCount(json.out) == 2);
  CHECK_THAT(json.out.substr(0, json.out.find('\n')), Contains("saxpy.cl"));
  // Several outputs need a folder; -o with several files is refused before anything is written.
  const auto refused = runCli("rewrite " + files + " -o '" + (dir.path / "x.cl").string() + "'");
  CHECK(refused.exitCode == 2);
  CHECK_THAT(refused.err, Contains("--output-dir"));
  CHECK_FALSE(std::filesystem::exists(dir.path / "x.cl"));
  const auto written =
      runCli("coarsen " + files + " --factor 2 --output-dir '" + dir.path.string() + "'");
  REQUIRE(written.exitCode == 0);
  CHECK_THAT(readWholeFile((dir.path / "saxpy.cl").string()), Contains("saxpy"));
  CHECK_THAT(readWholeFile((dir.path / "scale.cl").string()), Contains("scale"));
  const auto same = runCli("coarsen " + files + " '" + kernels +
                           "saxpy.cl' --factor 2 "
                           "--output-dir '" +
                           dir.path.string() + "'");
  CHECK(same.exitCode == 2);
  CHECK_THAT(same.err, Contains("distinct file names"));
  // Issue 45: a missing output folder is made, with its parents (the README's
  // `--output-dir normalized/`), and not when the inputs would collide.
  const auto made = runCli("rewrite " + files + " --output-dir '" +
                           (dir.path / "normalized" / "deep").string() + "/'");
  INFO(made.err);
  REQUIRE(made.exitCode == 0);
  CHECK_THAT(readWholeFile((dir.path / "normalized" / "deep" / "scale.cl").string()),
             Contains("__kernel"));
  CHECK(runCli("rewrite " + files + " '" + kernels + "saxpy.cl' --output-dir '" +
               (dir.path / "never").string() + "'")
            .exitCode == 2);
  CHECK_FALSE(std::filesystem::exists(dir.path / "never"));
  // Something else in its place is not replaced: a file, a dangling link.
  dir.file("plain", "x");
  std::filesystem::create_symlink(dir.path / "nowhere", dir.path / "dangling");
  for (const char* taken : {"plain", "dangling"}) {
    const auto refusedDir =
        runCli("rewrite " + files + " --output-dir '" + (dir.path / taken).string() + "'");
    CHECK(refusedDir.exitCode == 2);
    CHECK_THAT(refusedDir.err, Contains("is not a folder"));
  }
  CHECK_FALSE(std::filesystem::exists(dir.path / "nowhere"));
  CHECK(readWholeFile((dir.path / "plain").string()) == "x");
  const auto ids = runCli("tokenize " + files + " --rewrite --vocab '" +
                          deeptune::test::paperDataDir() + "/vocab-128.json'");
  REQUIRE(ids.exitCode == 0);
  CHECK(deeptune::test::lineCount(ids.out) == 2);
}
