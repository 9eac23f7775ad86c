// End-to-end file safety of the CLI: outputs never replace links, devices or FIFOs; standard
// output errors fail the command; unbounded inputs are refused; bad outputs fail before work.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <vector>

#include "data/csv_reader.hpp"
#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using deeptune::test::lineCount;
using deeptune::test::readWholeFile;
using deeptune::test::runCli;
using deeptune::test::ScratchDir;

namespace {

const std::string kKernel = "__kernel void A(__global float* a) {\n  a[0] = 1.0f;\n}\n";

/// The header and first `rows` rows of the paper's AMD data, as a file of `dir`.
std::string smallDevmapCsv(const ScratchDir& dir, size_t rows) {
  const auto table = deeptune::data::readCsv(deeptune::test::paperDataDir() + "/cgo17-amd.csv");
  std::string csv = deeptune::data::csvRow(table.header);
  for (size_t i = 0; i < rows && i < table.rows.size(); ++i) {
    csv += deeptune::data::csvRow(table.rows[i]);
  }
  return dir.file("small.csv", csv);
}

/// Runs `arguments`, which must be refused with exit 2 and one line on stderr naming `named`,
/// with nothing on stdout and every file of `unchanged` as it was.
void checkRefused(const std::string& arguments, const std::string& named,
                  const std::vector<std::string>& unchanged) {
  std::vector<std::string> before;
  for (const std::string& file : unchanged) before.push_back(readWholeFile(file));
  const auto result = runCli(arguments);
  INFO(arguments << " -> " << result.err);
  CHECK(result.exitCode == 2);
  CHECK(lineCount(result.err) == 1);
  CHECK_THAT(result.err, Contains(named));
  CHECK(result.out.empty());
  for (size_t i = 0; i < unchanged.size(); ++i) {
    INFO(unchanged[i]);
    CHECK(readWholeFile(unchanged[i]) == before[i]);
  }
}

}  // namespace

TEST_CASE("cli files: -o follows a link and streams to a device", "[cli][files]") {
  ScratchDir dir("deeptune-cli-files-out");
  const std::string kernel = dir.file("k.cl", kKernel);
  const std::string target = dir.file("target.cl", "old");
  const std::string link = (dir.path / "link.cl").string();
  fs::create_symlink(target, link);
  auto result = runCli("rewrite '" + kernel + "' -o '" + link + "'");
  REQUIRE(result.exitCode == 0);
  CHECK(fs::is_symlink(link));
  CHECK_THAT(readWholeFile(target), Contains("__kernel void A"));

  result = runCli("rewrite '" + kernel + "' -o /dev/null");
  CHECK(result.exitCode == 0);
  CHECK(fs::is_character_file("/dev/null"));
  for (const auto& entry : fs::directory_iterator("/dev")) {
    INFO(entry.path());
    CHECK(entry.path().filename().string().rfind(".null.", 0) != 0);  // no temporary left in /dev
  }
}

TEST_CASE("cli files: a failed write of standard output fails the command", "[cli][files]") {
  ScratchDir dir("deeptune-cli-files-full");
  const std::string kernel = dir.file("k.cl", kKernel);
  const std::string err = (dir.path / "err").string();
  const int status = std::system(
      ("'" + deeptune::test::cliPath() + "' rewrite '" + kernel + "' >/dev/full 2>'" + err + "'")
          .c_str());
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK_THAT(readWholeFile(err), Contains("standard output: write failed"));
  CHECK(lineCount(readWholeFile(err)) == 1);
}

TEST_CASE("cli files: devices and FIFOs as inputs are refused at once", "[cli][files]") {
  ScratchDir dir("deeptune-cli-files-in");
  const std::string vocab = deeptune::test::paperDataDir() + "/vocab-128.json";
  const std::string kernel = dir.file("k.cl", kKernel);
  const std::string fifo = (dir.path / "fifo").string();
  REQUIRE(system(("mkfifo '" + fifo + "'").c_str()) == 0);
  const std::string cases[] = {
      "rewrite /dev/zero",
      "rewrite '" + fifo + "'",
      "tokenize /dev/urandom --vocab '" + vocab + "'",
      "tokenize '" + kernel + "' --vocab /dev/zero",
      "predict '" + kernel + "' --dsize 1024 --wgsize 64 --model /dev/zero",
  };
  for (const std::string& arguments : cases) {
    const auto started = std::chrono::steady_clock::now();
    const auto result = deeptune::test::runCliWithin1GiB(arguments);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    INFO(arguments << " -> " << result.err);
    CHECK(result.exitCode == 2);
    CHECK(lineCount(result.err) == 1);
    CHECK_THAT(result.err, Contains("is a character device") || Contains("is a FIFO"));
    CHECK(seconds < 10);
  }
}

TEST_CASE("cli files: outputs that cannot be written fail before training", "[cli][files]") {
  ScratchDir dir("deeptune-cli-files-late");
  const std::string data = deeptune::test::paperDataDir() + "/cgo17-amd.csv";
  const std::string blocker = dir.file("blocker", "x");
  auto result =
      runCli("train --data '" + data + "' -o '" + dir.path.string() + "/missing/m.model'");
  INFO(result.err);
  CHECK(result.exitCode == 2);
  CHECK_THAT(result.err, Contains("missing/m.model:1:1: cannot write"));
  CHECK(lineCount(result.err) == 1);  // no epoch was printed
  result = runCli("evaluate --data '" + data + "' --protocol kernel --report '" + blocker + "'");
  CHECK(result.exitCode == 2);
  CHECK_THAT(result.err, Contains("cannot create the report folder"));
  CHECK(lineCount(result.err) == 1);
}

TEST_CASE("cli files: train killed at any moment leaves the old model or none, never half",
          "[cli][files]") {
  ScratchDir dir("deeptune-cli-files-kill");
  const std::string data = deeptune::test::paperDataDir() + "/cgo17-amd.csv";
  const std::string model = (dir.path / "m.model").string();
  const std::string train = "'" + deeptune::test::cliPath() + "' train --data '" + data +
                            "' --method deeptune --epochs 3 --max-length 32 -o '" + model + "'";
  REQUIRE(std::system((train + " >/dev/null 2>&1").c_str()) == 0);
  const std::string before = readWholeFile(model);
  // Kills at increasing moments: during start-up, training, and around the final write.
  for (const char* delay : {"0.3", "1", "2", "3", "4"}) {
    INFO("killed after " << delay << " s");
    std::system(
        ("timeout -s KILL " + std::string(delay) + " " + train + " --seed 7 >/dev/null 2>&1")
            .c_str());
    const std::string after = readWholeFile(model);
    CHECK(after.size() > 1000);
    // Either the old model or a whole new one: the file always loads.
    const auto check =
        runCli("predict '" + deeptune::test::sourceDir() +
               "/kernels/saxpy.cl' --dsize 1024 --wgsize 64 --model '" + model + "'");
    CHECK(check.exitCode == 0);
    // Nothing else under the model's name (a kill inside the final write can leave only a hidden
    // ".m.model.<random>.tmp", which SIGKILL gives no chance to remove).
    for (const auto& entry : fs::directory_iterator(dir.path)) {
      const std::string name = entry.path().filename().string();
      CHECK((name == "m.model" || (name.rfind(".m.model.", 0) == 0 && name.size() > 13)));
    }
  }
  CHECK(!before.empty());
}

TEST_CASE("cli files: an output that is one of the inputs is refused, nothing written",
          "[cli][files]") {
  // Issue 27, 8: train, vocab, rewrite, coarsen, upgrade-model and evaluate replaced their input
  // with exit 0; one rule (data::checkOutputNotInput) now refuses it in every command, as
  // measure did (test_cli_measure.cpp).
  ScratchDir dir("deeptune-cli-files-inputs");
  const std::string data = smallDevmapCsv(dir, 16);
  const std::string vocab =
      dir.file("v.json", readWholeFile(deeptune::test::paperDataDir() + "/vocab-128.json"));
  const std::string kernel = dir.file("k.cl", kKernel);
  const std::string link = (dir.path / "link.cl").string();
  fs::create_symlink(kernel, link);
  const std::string model =
      dir.file("m.model", readWholeFile(deeptune::test::sourceDir() + "/models/devmap-amd.model"));
  const std::string quick = " --method deeptune --epochs 1 --max-length 32";
  checkRefused("train --data '" + data + "'" + quick + " -o '" + data + "'", "is the input",
               {data});
  checkRefused(
      "train --data '" + data + "' --vocab '" + vocab + "'" + quick + " -o '" + vocab + "'",
      vocab + ":1:1: is the input", {data, vocab});
  checkRefused("train --task coarsening --data '" + deeptune::test::paperDataDir() +
                   "/pact-2014-runtimes.csv' --platform Tahiti --transfer-from '" + model + "'" +
                   quick + " -o '" + model + "'",
               "is the input", {model});
  checkRefused("vocab derive '" + kernel + "' -o '" + kernel + "'", "is the input", {kernel});
  checkRefused("vocab derive --csv '" + data + "' -o '" + data + "'", "is the input", {data});
  checkRefused("rewrite '" + kernel + "' -o '" + kernel + "'", "is the input", {kernel});
  checkRefused("rewrite '" + kernel + "' -o '" + link + "'", link + ":1:1: is the input " + kernel,
               {kernel});
  checkRefused("coarsen '" + link + "' --factor 2 -o '" + kernel + "'", "is the input", {kernel});
  checkRefused("upgrade-model '" + model + "' -o '" + model + "'", "is the input", {model});
  // A report folder that holds its data: the report's predictions.csv would replace it.
  fs::create_directories(dir.path / "report");
  const std::string inReport = dir.file(
      "report/predictions.csv", readWholeFile(deeptune::test::paperDataDir() + "/cgo17-amd.csv"));
  checkRefused("evaluate --data '" + inReport + "' --protocol suite --methods static --report '" +
                   (dir.path / "report").string() + "'",
               "holds the input", {inReport});
}

TEST_CASE("cli files: an empty output path is an error in every command that writes",
          "[cli][files]") {
  // Issue 27, 8: -o '' wrote to standard output in rewrite and vocab, and was an error in train.
  ScratchDir dir("deeptune-cli-files-empty");
  const std::string data = smallDevmapCsv(dir, 16);
  const std::string kernel = dir.file("k.cl", kKernel);
  const std::string model = deeptune::test::sourceDir() + "/models/devmap-amd.model";
  for (const std::string& arguments :
       {"rewrite '" + kernel + "' -o ''", "coarsen '" + kernel + "' --factor 2 -o ''",
        "vocab derive '" + kernel + "' -o ''", "vocab derive --csv '" + data + "' -o ''",
        "train --data '" + data + "' --method deeptune --epochs 1 --max-length 32 -o ''",
        "upgrade-model '" + model + "' -o ''", "measure '" + kernel + "' --gsize 64 -o ''",
        "evaluate --data '" + data + "' --protocol suite --methods static --report ''"}) {
    checkRefused(arguments, "empty output path", {kernel, data});
  }
  // "-" is standard output where a command writes text, and refused where it writes a model.
  const auto result = runCli("rewrite '" + kernel + "' -o -");
  CHECK(result.exitCode == 0);
  CHECK_THAT(result.out, Contains("__kernel void A"));
  checkRefused("train --data '" + data + "' --method deeptune --epochs 1 --max-length 32 -o -",
               "cannot be standard output", {data});
  checkRefused("upgrade-model '" + model + "' -o -", "cannot be standard output", {});
  CHECK_FALSE(fs::exists("-"));  // no file named "-" in the working directory
}
