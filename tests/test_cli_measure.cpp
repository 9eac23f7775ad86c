// End-to-end tests of `deeptune devices` and `deeptune measure`: our kernels, a paper extract,
// the CSV columns and statuses, bad input (exit 2 with one line), one run per output.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "data/csv_reader.hpp"
#include "data/data_error.hpp"
#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using deeptune::test::lineCount;
using deeptune::test::readWholeFile;
using deeptune::test::runCli;
using deeptune::test::ScratchDir;

namespace {

std::string kernelPath(const std::string& name) {
  return deeptune::test::sourceDir() + "/kernels/tests/" + name;
}

/// Value of `column` in every row, keyed by benchmark + "@" + gsize.
std::map<std::string, std::string> byRow(const deeptune::data::CsvTable& table,
                                         const std::string& column) {
  std::map<std::string, std::string> values;
  const size_t benchmark = table.column("benchmark");
  const size_t gsize = table.column("gsize");
  const size_t wanted = table.column(column);
  for (const auto& row : table.rows) values[row[benchmark] + "@" + row[gsize]] = row[wanted];
  return values;
}

/// The rows of CSV `text` without a last row that a kill cut (what a rerun keeps): the text is
/// cut back line break by line break until it parses.
std::vector<std::vector<std::string>> wholeRows(std::string text) {
  while (true) {
    try {
      return deeptune::data::parseCsv(text, "killed.csv").rows;
    } catch (const deeptune::data::DataError&) {
      const size_t cut = text.size() < 2 ? std::string::npos : text.rfind('\n', text.size() - 2);
      if (cut == std::string::npos) throw;
      text.resize(cut + 1);
    }
  }
}

/// The keys (benchmark@gsize) of a measure CSV's rows.
std::multiset<std::string> rowKeys(const deeptune::data::CsvTable& table) {
  std::multiset<std::string> keys;
  for (const auto& row : table.rows) {
    keys.insert(row[table.column("benchmark")] + "@" + row[table.column("gsize")]);
  }
  return keys;
}

}  // namespace

TEST_CASE("cli devices lists the OpenCL devices, as text and JSON", "[cli][runtime]") {
  const auto text = runCli("devices");
  CHECK(text.exitCode == 0);
  CHECK_THAT(text.out, StartsWith("dev0  "));
  CHECK_THAT(text.out, Contains("compute units:"));
  const auto json = runCli("devices --json");
  REQUIRE(json.exitCode == 0);
  const nlohmann::json devices = nlohmann::json::parse(json.out);
  REQUIRE(devices.is_array());
  REQUIRE_FALSE(devices.empty());
  bool cpu = false;
  for (const auto& d : devices) {
    CHECK(d["compute_units"].get<int>() > 0);
    CHECK(d["global_mem_bytes"].get<uint64_t>() > 0);
    cpu = cpu || d["type"] == "CPU";
  }
  CHECK(cpu);
  CHECK(runCli("devices --bogus").exitCode == 2);
}

TEST_CASE("cli measure ok.cl at two sizes writes the documented CSV", "[cli][runtime]") {
  ScratchDir dir("deeptune-cli-measure");
  const std::string out = (dir.path / "out.csv").string();
  const auto result = runCli("measure '" + kernelPath("ok.cl") +
                             "' --gsize 1024,4096 --timeout 60 -o '" + out + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(result.out.empty());
  CHECK_THAT(result.err, Contains("measure: [1/1]"));
  const auto table = deeptune::data::readCsv(out);
  const std::vector<std::string> first = {
      "benchmark",   "dataset",       "gsize",          "wgsize",          "transfer",
      "oracle",      "runtime_cpu",   "runtime_gpu",    "dev0_name",       "dev0_type",
      "dev0_status", "dev0_checks",   "dev0_wgsize",    "dev0_kernel_ns",  "dev0_h2d_ns",
      "dev0_d2h_ns", "dev0_total_ns", "dev0_ci_low_ns", "dev0_ci_high_ns", "dev0_runs",
      "dev0_message"};
  REQUIRE(table.header.size() >= first.size() + 1);
  CHECK(std::vector<std::string>(table.header.begin(), table.header.begin() + first.size()) ==
        first);
  CHECK(table.header.back() == "src");
  REQUIRE(table.rows.size() == 4);  // 2 kernels x 2 sizes

  const std::string file = kernelPath("ok.cl");
  const auto transfer = byRow(table, "transfer");
  CHECK(transfer.at(file + ":saxpy@1024") == "12288");
  CHECK(transfer.at(file + ":saxpy@4096") == "49152");
  CHECK(transfer.at(file + ":scale4@1024") == "32768");
  CHECK(byRow(table, "dataset").at(file + ":saxpy@4096") == "4096");
  CHECK(byRow(table, "wgsize").at(file + ":saxpy@4096") == "256");
  const std::string source = readWholeFile(file);
  for (const auto& [key, status] : byRow(table, "dev0_status")) {
    INFO(key);
    CHECK(status == "OK");
  }
  for (const auto& [key, src] : byRow(table, "src")) CHECK(src == source);
  for (const auto& [key, ms] : byRow(table, "runtime_cpu")) CHECK(std::stod(ms) > 0);
  for (const auto& [key, ns] : byRow(table, "dev0_kernel_ns")) CHECK(std::stod(ns) > 0);
  for (const auto& [key, runs] : byRow(table, "dev0_runs")) CHECK(runs == "6");
  for (const auto& [key, oracle] : byRow(table, "oracle")) CHECK_FALSE(oracle.empty());
}

TEST_CASE("cli measure reports each check's status for the test kernels", "[cli][runtime]") {
  ScratchDir dir("deeptune-cli-measure-checks");
  const std::string out = (dir.path / "out.csv").string();
  const auto result =
      runCli("measure '" + kernelPath("input_insensitive.cl") + "' '" + kernelPath("no_output.cl") +
             "' '" + kernelPath("build_error.cl") + "' '" + kernelPath("infinite_loop.cl") + "' '" +
             kernelPath("crash.cl") + "' --gsize 4096 --timeout 5 -o '" + out + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  const auto table = deeptune::data::readCsv(out);
  const auto status = byRow(table, "dev0_status");
  CHECK(status.at(kernelPath("input_insensitive.cl") + ":constants@4096") == "INPUT_INSENSITIVE");
  CHECK(status.at(kernelPath("no_output.cl") + ":nothing@4096") == "NO_OUTPUT");
  CHECK(status.at(kernelPath("build_error.cl") + ":broken@4096") == "BUILD_ERROR");
  CHECK(status.at(kernelPath("infinite_loop.cl") + ":spin@4096") == "TIMEOUT");
  const std::string crash = status.at(kernelPath("crash.cl") + ":wild@4096");
  CHECK((crash == "CRASH" || crash == "RUN_ERROR"));
  CHECK_THAT(byRow(table, "dev0_message").at(kernelPath("build_error.cl") + ":broken@4096"),
             Contains("undeclared_value"));
  CHECK(byRow(table, "dev0_kernel_ns").at(kernelPath("infinite_loop.cl") + ":spin@4096").empty());
}

TEST_CASE("cli measure --csv runs a paper extract once per source, src left empty",
          "[cli][runtime]") {
  ScratchDir dir("deeptune-cli-measure-csv");
  const auto paper = deeptune::data::readCsv(deeptune::test::paperDataDir() + "/cgo17-amd.csv");
  const std::set<std::string> wanted = {
      "polybench-gpu-1.0-2mm-mm2_kernel1", "polybench-gpu-1.0-2mm-mm2_kernel2",  // same source
      "rodinia-3.1-bfs-BFS_2", "npb-3.3-BT-exact_rhs4"};  // the last does not compile
  std::string extract = deeptune::data::csvRow({"benchmark", "dataset", "src"});
  const size_t benchmark = paper.column("benchmark");
  const size_t dataset = paper.column("dataset");
  const size_t src = paper.column("src");
  for (const auto& row : paper.rows) {  // every dataset row: measure keeps one per name
    if (wanted.count(row[benchmark])) {
      extract += deeptune::data::csvRow({row[benchmark], row[dataset], row[src]});
    }
  }
  const std::string in = dir.file("extract.csv", extract);
  const std::string out = (dir.path / "out.csv").string();
  const auto result =
      runCli("measure --csv '" + in + "' --gsize 64,256 --timeout 60 -o '" + out + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK_THAT(result.err, Contains("measure: [3/3]"));  // three distinct sources
  const auto table = deeptune::data::readCsv(out);
  CHECK(table.rows.size() == 8);  // four names x two sizes
  const auto status = byRow(table, "dev0_status");
  CHECK(status.at("npb-3.3-BT-exact_rhs4@64") == "BUILD_ERROR");
  CHECK(status.at("npb-3.3-BT-exact_rhs4@256") == "BUILD_ERROR");
  CHECK_FALSE(byRow(table, "dev0_kernel_ns").at("rodinia-3.1-bfs-BFS_2@256").empty());
  const auto kernelNs = byRow(table, "dev0_kernel_ns");
  CHECK(kernelNs.at("polybench-gpu-1.0-2mm-mm2_kernel1@256") ==
        kernelNs.at("polybench-gpu-1.0-2mm-mm2_kernel2@256"));  // run once, reported twice
  for (const auto& [key, text] : byRow(table, "src")) CHECK(text.empty());
}

TEST_CASE("cli measure: bad input exits 2 with one line", "[cli][runtime]") {
  ScratchDir dir("deeptune-cli-measure-bad");
  const std::string out = (dir.path / "out.csv").string();
  const std::string ok = "'" + kernelPath("ok.cl") + "'";
  const std::string noSrc = dir.file("nosrc.csv", "benchmark,x\na,b\n");
  const std::string binary = dir.file("binary.cl", std::string("__kernel\0void", 13));
  const std::vector<std::string> commands = {
      "measure /nonexistent/kernel.cl --gsize 64 -o '" + out + "'",
      "measure " + ok + " --gsize abc -o '" + out + "'",
      "measure " + ok + " --gsize 0 -o '" + out + "'",
      "measure " + ok + " --gsize 64,,128 -o '" + out + "'",
      "measure " + ok + " -o '" + out + "'",
      "measure --gsize 64 -o '" + out + "'",
      "measure " + ok + " --gsize 64",
      "measure " + ok + " --gsize 64 --runs 3 -o '" + out + "'",
      "measure " + ok + " --gsize 64 --timeout 0 -o '" + out + "'",
      "measure --csv '" + noSrc + "' --gsize 64 -o '" + out + "'",
      "measure --csv /nonexistent.csv --gsize 64 -o '" + out + "'",
      "measure '" + binary + "' --gsize 64 -o '" + out + "'",
      "measure " + ok + " --gsize 64 --wgsize -1 -o '" + out + "'",
  };
  for (const std::string& command : commands) {
    INFO(command);
    const auto result = runCli(command);
    CHECK(result.exitCode == 2);
    CHECK(lineCount(result.err) == 1);
    CHECK_THAT(result.err, StartsWith("deeptune: "));
  }
}

TEST_CASE("cli measure --help documents the options", "[cli][runtime]") {
  const auto result = runCli("measure --help");
  CHECK(result.exitCode == 0);
  for (const char* option : {"--gsize", "--wgsize", "--timeout", "--runs", "--kernel", "--csv"}) {
    CHECK_THAT(result.out, Contains(option));
  }
}

TEST_CASE("cli measure: killed at any moment, a rerun keeps every finished row", "[cli][runtime]") {
  ScratchDir dir("deeptune-cli-measure-kill");
  const std::string out = (dir.path / "out.csv").string();
  std::string kernels;
  for (const char* name :
       {"ok.cl", "no_output.cl", "input_insensitive.cl", "nondeterministic.cl"}) {
    kernels += " '" + kernelPath(name) + "'";
  }
  const std::string command = "measure" + kernels + " --gsize 256,1024 -o '" + out + "'";
  // SIGKILL once two rows are written (rows start FILE.cl:KERNEL; sources span lines): the file
  // holds whole rows (each appended with one write), but for a last row the kill may have cut
  // in the middle of its write, which the rerun cuts off and measures again.
  const std::string script = "'" + deeptune::test::cliPath() + "' " + command +
                             " >/dev/null 2>&1 &\n"
                             "pid=$!\n"
                             "for i in $(seq 600); do\n"
                             "  rows=$(grep -c '\\.cl:[A-Za-z0-9_]*,' '" +
                             out +
                             "' 2>/dev/null)\n"
                             "  [ \"${rows:-0}\" -ge 2 ] && break\n"
                             "  sleep 0.05\n"
                             "done\n"
                             "kill -9 $pid\n"
                             "wait $pid\n";
  const std::string killer = dir.file("kill.sh", script);
  std::system(("bash '" + killer + "'").c_str());
  const std::vector<std::vector<std::string>> before = wholeRows(readWholeFile(out));
  INFO(before.size() << " rows before the rerun");
  CHECK(before.size() >= 1);
  CHECK(before.size() < 10);  // killed before the end

  const auto rerun = runCli(command);
  INFO(rerun.err);
  REQUIRE(rerun.exitCode == 0);
  CHECK_THAT(rerun.err, Contains("resuming"));
  const auto after = deeptune::data::readCsv(out);
  REQUIRE(after.rows.size() == 10);  // 5 kernels (ok.cl has 2) x 2 sizes, none twice
  for (size_t i = 0; i < before.size(); ++i) CHECK(after.rows[i] == before[i]);  // kept as is
  std::set<std::string> keys;
  for (const auto& row : after.rows) keys.insert(row[0] + "@" + row[1]);
  CHECK(keys.size() == 10);

  // A complete file: nothing is measured again.
  const auto again = runCli(command);
  REQUIRE(again.exitCode == 0);
  CHECK_THAT(again.err, Contains("already in") && Contains("0 new rows in") &&
                            Contains("beside 10 rows of an earlier run"));
  CHECK(deeptune::data::readCsv(out).rows == after.rows);
}

TEST_CASE("cli measure --csv states every row it does not measure", "[cli][runtime]") {
  ScratchDir dir("deeptune-cli-measure-rows");
  const std::string kernel = readWholeFile(kernelPath("ok.cl"));
  const std::string in = dir.file(
      "in.csv", deeptune::data::csvRow({"benchmark", "src"}) +
                    deeptune::data::csvRow({"a", kernel}) +
                    deeptune::data::csvRow({"a", kernel}) +         // the same again: measured once
                    deeptune::data::csvRow({"a", kernel + "\n"}) +  // another source, same name
                    deeptune::data::csvRow({"b", ""}));
  const std::string out = (dir.path / "out.csv").string();
  const auto result = runCli("measure --csv '" + in + "' --gsize 64 -o '" + out + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK_THAT(result.err, Contains("benchmark 'a': a second source under a name already measured"));
  CHECK_THAT(result.err, Contains("benchmark 'b': empty src, not measured"));
  CHECK_THAT(result.err, Contains("2 input rows not measured"));
  CHECK(deeptune::data::readCsv(out).rows.size() == 2);  // ok.cl's two kernels, once
}

TEST_CASE("cli measure: an output that is an input or has other columns is refused",
          "[cli][runtime]") {
  ScratchDir dir("deeptune-cli-measure-out");
  const std::string copy = dir.file("ok.cl", readWholeFile(kernelPath("ok.cl")));
  auto result = runCli("measure '" + copy + "' --gsize 64 -o '" + copy + "'");
  CHECK(result.exitCode == 2);
  CHECK_THAT(result.err, Contains("is the input"));
  CHECK(readWholeFile(copy) == readWholeFile(kernelPath("ok.cl")));
  const std::string other = dir.file("other.csv", "benchmark,dataset,x\na,b,c\n");
  result = runCli("measure '" + copy + "' --gsize 64 -o '" + other + "'");
  CHECK(result.exitCode == 2);
  CHECK_THAT(result.err, Contains("has other columns"));
  CHECK(readWholeFile(other) == "benchmark,dataset,x\na,b,c\n");
}

TEST_CASE(
    "cli measure: a launch too large for the device becomes a RUN_ERROR row, before any "
    "allocation, and the run goes on",
    "[cli][runtime][faults]") {
  // ulong16 elements are 128 bytes: 2^31 of them (256 GiB) exceed any device's largest buffer.
  // Before the check, the payload was allocated on the host first (2 x 256 GiB).
  ScratchDir dir("deeptune-cli-measure-memory");
  const std::string kernel = dir.file(
      "wide.cl", "__kernel void wide(__global ulong16* a) {\n  a[get_global_id(0)] += 1;\n}\n");
  const std::string out = (dir.path / "out.csv").string();
  const auto result =
      runCli("measure '" + kernel + "' --gsize 2147483648,64 --timeout 60 -o '" + out + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  const auto table = deeptune::data::readCsv(out);
  REQUIRE(table.rows.size() == 2);
  const auto status = byRow(table, "dev0_status");
  const auto message = byRow(table, "dev0_message");
  CHECK(status.at(kernel + ":wide@2147483648") == "RUN_ERROR");
  CHECK_THAT(message.at(kernel + ":wide@2147483648"),
             Contains("over the device's largest allocation"));
  CHECK(status.at(kernel + ":wide@64") == "OK");
}

TEST_CASE("cli measure: a device call failing mid-run becomes a RUN_ERROR row and the run goes on",
          "[cli][runtime][faults]") {
  // The fault shim (tests/fault) makes the worker's first kernel launch fail, as a driver
  // running out of resources would; the second kernel of the file must still be measured.
  ScratchDir dir("deeptune-cli-measure-fault");
  const std::string out = (dir.path / "out.csv").string();
  const std::string file = kernelPath("ok.cl");
  const auto result =
      runCli("measure '" + file + "' --gsize 1024 --timeout 60 -o '" + out + "'",
             "LD_PRELOAD='" + std::string(DEEPTUNE_FAULT_SHIM) + "' DEEPTUNE_FAULT_ENQUEUE=1");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  const auto table = deeptune::data::readCsv(out);  // whole and valid
  REQUIRE(table.rows.size() == 2);
  const auto status = byRow(table, "dev0_status");
  CHECK(status.at(file + ":saxpy@1024") == "RUN_ERROR");
  CHECK_THAT(byRow(table, "dev0_message").at(file + ":saxpy@1024"),
             Contains("clEnqueueNDRangeKernel") && Contains("CL_OUT_OF_RESOURCES"));
  CHECK(status.at(file + ":scale4@1024") == "OK");
  // Without the fault the same run is clean: the failure came from the simulated call.
  const std::string cleanOut = (dir.path / "clean.csv").string();
  const auto clean =
      runCli("measure '" + file + "' --gsize 1024 --timeout 60 -o '" + cleanOut + "'");
  REQUIRE(clean.exitCode == 0);
  CHECK(byRow(deeptune::data::readCsv(cleanOut), "dev0_status").at(file + ":saxpy@1024") == "OK");
}

TEST_CASE("cli measure --task coarsening labels kernels that train and evaluate read",
          "[cli][runtime][coarsening]") {
  ScratchDir dir("deeptune-measure-coarsening");
  const std::string kernels = deeptune::test::sourceDir() + "/kernels/";
  const std::string csv = dir.path.string() + "/coarsening.csv";
  const std::string inputs = kernels + "saxpy.cl " + kernels + "scale.cl " + kernels +
                             "poly_eval.cl " + kernels + "reduce_sum.cl";
  const auto run = runCli("measure --task coarsening " + inputs +
                          " --gsize 4096 --factors 1,2,4 --runs 5 -o " + csv);
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.err, Contains("not coarsenable: reduce_sum:"));
  CHECK_THAT(run.err, Contains("'barrier' inside the replicated body"));
  const deeptune::data::CsvTable table = deeptune::data::readCsv(csv);
  REQUIRE(table.header.size() >= 6);
  CHECK(table.header[0] == "kernel");
  CHECK(table.header[1] == "cf");
  CHECK_THAT(table.header[2], StartsWith("runtime_"));
  CHECK(table.header.back() == "src");
  REQUIRE(table.rows.size() == 9);                          // 3 kernels x 3 factors
  const size_t status = 2 + (table.header.size() - 4) / 2;  // first status_ column
  CHECK_THAT(table.header[status], StartsWith("status_"));
  std::set<std::string> names;
  for (const auto& row : table.rows) {
    names.insert(row[0]);
    CHECK(row[status] == "OK");
    CHECK(std::atof(row[2].c_str()) > 0);
    CHECK_THAT(row.back(), StartsWith("__kernel void A("));  // normalized, un-coarsened
  }
  CHECK(names == std::set<std::string>{"saxpy", "scale", "poly_eval"});

  // Rerun with the same -o: nothing measured again.
  const auto again = runCli("measure --task coarsening " + inputs +
                            " --gsize 4096 --factors 1,2,4 --runs 5 -o " + csv);
  CHECK(again.exitCode == 0);
  CHECK_THAT(again.err, Contains("9 rows kept"));
  CHECK(deeptune::data::readCsv(csv).rows.size() == 9);

  // The paper's schema: `evaluate --task coarsening` reads it unchanged.
  const auto evaluate = runCli("evaluate --task coarsening --data " + csv +
                               " --methods static,fixed --report " + dir.path.string() + "/report");
  INFO(evaluate.err);
  CHECK(evaluate.exitCode == 0);
  CHECK_THAT(evaluate.out, Contains("fixed"));
  // magni needs the paper's PCA features, which measured data has not.
  const auto magni = runCli("evaluate --task coarsening --data " + csv +
                            " --methods magni --report " + dir.path.string() + "/report2");
  CHECK(magni.exitCode == 2);
  CHECK_THAT(magni.err, Contains("magni needs"));
}

TEST_CASE("cli measure --task coarsening refuses bad factors", "[cli][coarsening]") {
  const std::string saxpy = deeptune::test::sourceDir() + "/kernels/saxpy.cl";
  for (const char* bad : {"--factors 2,4", "--factors 1,3", "--factors 1,64", "--factors 1,2,2",
                          "--gsize 64,128", "--wgsize 100"}) {
    const std::string gsize = std::string(bad).rfind("--gsize", 0) == 0 ? "" : " --gsize 4096";
    const auto run = runCli("measure --task coarsening " + saxpy + gsize + " " + bad + " -o -");
    INFO(bad << ": " << run.err);
    CHECK(run.exitCode == 2);
    CHECK(lineCount(run.err) == 1);
  }
}

TEST_CASE("cli measure: a size or a kernel file given twice is refused, exit 2 with one line",
          "[cli][runtime]") {
  // Issue 27: --gsize 4096,4096 and one file given twice (by two spellings, or a link) wrote
  // duplicate (benchmark, gsize) rows; train would have counted those kernels twice.
  ScratchDir dir("deeptune-cli-measure-twice");
  const std::string out = (dir.path / "out.csv").string();
  const std::string copy = dir.file("a.cl", readWholeFile(kernelPath("ok.cl")));
  const std::string dotted = (dir.path / "." / "a.cl").string();
  const std::string link = (dir.path / "link.cl").string();
  REQUIRE(::symlink(copy.c_str(), link.c_str()) == 0);
  struct Case {
    std::string arguments, says;
  };
  const std::vector<Case> cases = {
      {"'" + copy + "' --gsize 64,128,64", "--gsize lists 64 twice"},
      {"'" + copy + "' '" + copy + "' --gsize 64", "are the same file"},
      {"'" + copy + "' '" + dotted + "' --gsize 64", "are the same file"},
      {"'" + copy + "' '" + link + "' --gsize 64", "are the same file"},
      {"--task coarsening '" + copy + "' '" + dotted + "' --gsize 4096", "are the same file"},
  };
  for (const Case& c : cases) {
    INFO(c.arguments);
    const auto result = runCli("measure " + c.arguments + " -o '" + out + "'");
    CHECK(result.exitCode == 2);
    CHECK(lineCount(result.err) == 1);
    CHECK_THAT(result.err, StartsWith("deeptune: measure: ") && Contains(c.says));
    CHECK_FALSE(std::filesystem::exists(out));
  }
}

TEST_CASE("cli measure: an output another run is writing is left untouched, exit 1 with one line",
          "[cli][runtime]") {
  ScratchDir dir("deeptune-cli-measure-locked");
  const std::string out = (dir.path / "out.csv").string();
  const std::string file = kernelPath("ok.cl");
  REQUIRE(runCli("measure '" + file + "' --gsize 64 -o '" + out + "'").exitCode == 0);
  const std::string before = readWholeFile(out);
  {
    // Another writer holds the file (as a running measure does) while this one starts.
    const int held = ::open(out.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(held >= 0);
    REQUIRE(::flock(held, LOCK_EX | LOCK_NB) == 0);
    const auto refused = runCli("measure '" + file + "' --gsize 64,128 -o '" + out + "'");
    ::close(held);
    INFO(refused.err);
    CHECK(refused.exitCode == 1);
    CHECK(lineCount(refused.err) == 1);
    CHECK_THAT(refused.err, StartsWith("deeptune: " + out + ": another run is writing it"));
    CHECK(readWholeFile(out) == before);
  }
  // Once it is free, the same command resumes it.
  const auto resumed = runCli("measure '" + file + "' --gsize 64,128 -o '" + out + "'");
  CHECK(resumed.exitCode == 0);
  CHECK(deeptune::data::readCsv(out).rows.size() == 4);
}

TEST_CASE("cli measure: two runs at once on one output lose no row", "[cli][runtime]") {
  // Issue 27: both runs read the file, then each replaced it with its own rows after each row,
  // and both reported success. Now either the second is refused (exit 1, the file untouched) or
  // both runs' rows end up in the file; a run that reports success must have all its rows there.
  ScratchDir dir("deeptune-cli-measure-two");
  const std::string out = (dir.path / "out.csv").string();
  std::string kernels;
  for (const char* name :
       {"ok.cl", "no_output.cl", "input_insensitive.cl", "nondeterministic.cl"}) {
    kernels += " '" + kernelPath(name) + "'";
  }
  const std::string cli = "'" + deeptune::test::cliPath() + "' ";
  const std::string first = "measure" + kernels + " --gsize 256,1024 -o '" + out + "'";
  const std::string second = "measure '" + kernelPath("ok.cl") + "' --gsize 64 -o '" + out + "'";
  const std::string d = dir.path.string() + "/";
  // The second starts once the first has created the output, while the first measures.
  const std::string script = cli + first + " >/dev/null 2>'" + d + "first.err' &\n" +
                             "pid=$!\n"
                             "for i in $(seq 600); do [ -s '" +
                             out + "' ] && break; sleep 0.05; done\n" + cli + second +
                             " >/dev/null 2>'" + d + "second.err'\n" + "echo $? >'" + d +
                             "second.rc'\n" + "kill -0 $pid 2>/dev/null && echo yes >'" + d +
                             "overlapped'\n" + "wait $pid\n" + "echo $? >'" + d + "first.rc'\n";
  std::system(("bash '" + dir.file("two.sh", script) + "'").c_str());
  REQUIRE(std::filesystem::exists(d + "overlapped"));  // the first was still writing
  const int firstRc = std::stoi(readWholeFile(d + "first.rc"));
  const int secondRc = std::stoi(readWholeFile(d + "second.rc"));
  const std::string secondErr = readWholeFile(d + "second.err");
  INFO(readWholeFile(d + "first.err") << secondErr);
  const auto table = deeptune::data::readCsv(out);
  const std::multiset<std::string> keys = rowKeys(table);
  CHECK(std::set<std::string>(keys.begin(), keys.end()).size() == keys.size());  // none twice
  std::vector<std::string> firstKeys,
      secondKeys = {kernelPath("ok.cl") + ":saxpy@64", kernelPath("ok.cl") + ":scale4@64"};
  for (const char* name : {"ok.cl:saxpy", "ok.cl:scale4", "no_output.cl:nothing",
                           "input_insensitive.cl:constants", "nondeterministic.cl:race"}) {
    for (const char* size : {"@256", "@1024"}) {
      firstKeys.push_back(kernelPath(name) + size);
    }
  }
  CHECK(firstRc == 0);
  for (const std::string& key : firstKeys) CHECK(keys.count(key) == 1);
  if (secondRc == 0) {
    for (const std::string& key : secondKeys) CHECK(keys.count(key) == 1);
  } else {
    CHECK(secondRc == 1);
    CHECK(lineCount(secondErr) == 1);
    CHECK_THAT(secondErr, Contains(out) && Contains("another run is writing it"));
    for (const std::string& key : secondKeys) CHECK(keys.count(key) == 0);
  }
}
