// Tests of isolation: child processes with timeouts, and kernel measurements in worker processes
// (the built deeptune binary) where a hang becomes TIMEOUT and a crash CRASH, the parent unharmed.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/isolation.hpp"
#include "runtime/runtime_error.hpp"
#include "runtime/subprocess.hpp"
#include "tests/cli_runner.hpp"
#include "tests/test_paths.hpp"

using namespace deeptune::runtime;
using Catch::Matchers::Contains;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string testKernel(const std::string& name) {
  return deeptune::test::readWholeFile(deeptune::test::sourceDir() + "/kernels/tests/" + name);
}

IsolationOptions workerOptions(double timeout) {
  IsolationOptions options;
  // The lean worker beside the CLI, as `deeptune measure` starts it.
  const std::filesystem::path cli = deeptune::test::cliPath();
  options.workerCommand = {(cli.parent_path() / "deeptune-measure-worker").string()};
  options.timeoutSeconds = timeout;
  return options;
}

std::vector<KernelResult> measure(const std::string& source, const std::vector<size_t>& gsizes,
                                  double timeout, size_t& deviceCount) {
  deviceCount = listDevicesIsolated(workerOptions(30)).size();
  REQUIRE(deviceCount > 0);
  MeasureRequest request;
  request.source = source;
  request.gsizes = gsizes;
  request.runs = 5;
  std::vector<KernelResult> results;
  measureIsolated(request, deviceCount, workerOptions(timeout),
                  [&](const KernelResult& r) { results.push_back(r); });
  return results;
}

bool processGone(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    if (::kill(pid, 0) != 0) return true;
    const std::string stat =
        deeptune::test::readWholeFile("/proc/" + std::to_string(pid) + "/stat");
    const size_t paren = stat.rfind(')');
    if (paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z')
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

TEST_CASE("runChild streams lines and reports the exit", "[runtime][isolation]") {
  std::vector<std::string> lines;
  const ChildExit exit =
      runChild({"/bin/sh", "-c", "echo one; echo two >&2; printf 'two\\nthree'; exit 3"}, 10,
               [&](const std::string& line) { lines.push_back(line); });
  CHECK(exit.kind == ChildExit::Kind::kExited);
  CHECK(exit.code == 3);
  CHECK(lines == std::vector<std::string>{"one", "two"});  // "three" never ended its line
  CHECK(exit.stderrTail == "two\n");
  CHECK(exit.describe(10) == "exit code 3");
}

TEST_CASE("runChild reports a death by signal", "[runtime][isolation]") {
  const ChildExit exit =
      runChild({"/bin/sh", "-c", "kill -SEGV $$"}, 10, [](const std::string&) {});
  CHECK(exit.kind == ChildExit::Kind::kSignaled);
  CHECK(exit.code == SIGSEGV);
  CHECK_THAT(exit.describe(10), Contains("signal 11"));
}

TEST_CASE("runChild kills a silent child and its process group at the timeout",
          "[runtime][isolation]") {
  pid_t grandchild = 0;
  const auto start = std::chrono::steady_clock::now();
  const ChildExit exit = runChild({"/bin/sh", "-c", "sleep 60 & echo $!; wait"}, 1,
                                  [&](const std::string& line) { grandchild = std::stoi(line); });
  const double elapsed = secondsSince(start);
  CHECK(exit.kind == ChildExit::Kind::kTimedOut);
  CHECK(elapsed >= 0.9);
  CHECK(elapsed < 5);
  REQUIRE(grandchild > 0);
  CHECK(processGone(grandchild));
  CHECK_THAT(exit.describe(1), Contains("no result within 1 s"));
}

TEST_CASE("every line restarts the timeout clock", "[runtime][isolation]") {
  int lines = 0;
  const ChildExit exit =
      runChild({"/bin/sh", "-c", "for i in 1 2 3 4; do echo $i; sleep 0.4; done"}, 1,
               [&](const std::string&) { ++lines; });
  CHECK(exit.kind == ChildExit::Kind::kExited);  // 1.6 s in all, never 1 s without a line
  CHECK(lines == 4);
}

TEST_CASE("runChild refuses a command that cannot start", "[runtime][isolation]") {
  CHECK_THROWS_AS(runChild({"/nonexistent/worker"}, 1, [](const std::string&) {}), RuntimeError);
  CHECK_THROWS_AS(runChild({}, 1, [](const std::string&) {}), RuntimeError);
}

TEST_CASE("a worker lists the same devices as this process", "[runtime][isolation]") {
  const std::vector<DeviceInfo> here = listDevices();
  const std::vector<DeviceInfo> there = listDevicesIsolated(workerOptions(30));
  REQUIRE(there.size() == here.size());
  for (size_t i = 0; i < here.size(); ++i) {
    CHECK(there[i].name == here[i].name);
    CHECK(there[i].type == here[i].type);
    CHECK(there[i].computeUnits == here[i].computeUnits);
    CHECK(there[i].globalMemBytes == here[i].globalMemBytes);
  }
}

TEST_CASE("an infinite loop becomes TIMEOUT within the limit", "[runtime][isolation]") {
  size_t devices = 0;
  const auto start = std::chrono::steady_clock::now();
  const std::vector<KernelResult> results =
      measure(testKernel("infinite_loop.cl"), {1024}, 3, devices);
  const double elapsed = secondsSince(start);
  REQUIRE(results.size() == 1);
  CHECK(results[0].kernel == "spin");
  for (const Measurement& m : results[0].devices) {
    CHECK(m.status == Status::kTimeout);
    CHECK_THAT(m.message, Contains("no result within 3 s"));
    CHECK_FALSE(m.hasTimings());
  }
  CHECK(elapsed < 3.0 * static_cast<double>(devices) + 10);  // start-up and build included
}

TEST_CASE("a wild write becomes CRASH (or a clean error) and the parent goes on",
          "[runtime][isolation]") {
  size_t devices = 0;
  const std::vector<KernelResult> results =
      measure(testKernel("crash.cl"), {1024, 2048}, 30, devices);
  REQUIRE(results.size() == 2);
  CHECK(results[0].gsize == 1024);
  CHECK(results[1].gsize == 2048);
  for (const KernelResult& r : results) {
    for (const Measurement& m : r.devices) {
      INFO(m.message);
      CHECK((m.status == Status::kCrash || m.status == Status::kRunError));
      if (m.status == Status::kCrash) CHECK_THAT(m.message, Contains("signal"));
    }
  }
}

TEST_CASE("after a crash the next worker resumes with the next kernel", "[runtime][isolation]") {
  const std::string source = testKernel("crash.cl") + "\n" + testKernel("ok.cl");
  size_t devices = 0;
  const std::vector<KernelResult> results = measure(source, {512}, 30, devices);
  REQUIRE(results.size() == 3);
  CHECK(results[0].kernel == "wild");
  CHECK(results[1].kernel == "saxpy");
  CHECK(results[2].kernel == "scale4");
  for (size_t k = 1; k < 3; ++k) {
    for (const Measurement& m : results[k].devices) {
      INFO(m.message);
      CHECK(m.status == Status::kOk);
      CHECK(m.runs.size() == 5);
      CHECK(m.transferBytes > 0);
    }
  }
}

TEST_CASE("a source that does not build gives BUILD_ERROR rows named from the text",
          "[runtime][isolation]") {
  size_t devices = 0;
  const std::vector<KernelResult> results =
      measure(testKernel("build_error.cl"), {64, 128}, 30, devices);
  REQUIRE(results.size() == 2);
  for (const KernelResult& r : results) {
    CHECK(r.kernel == "broken");
    for (const Measurement& m : r.devices) {
      CHECK(m.status == Status::kBuildError);
      CHECK_THAT(m.message, Contains("undeclared_value"));
    }
  }
}

TEST_CASE("a coarsened variant is checked against the un-coarsened source",
          "[runtime][isolation][coarsening]") {
  const size_t deviceCount = listDevicesIsolated(workerOptions(30)).size();
  REQUIRE(deviceCount > 0);
  const std::string reference =
      "kernel void twice(global const float* x, global float* y, int n) {\n"
      "  int i = get_global_id(0);\n"
      "  if (i < n) y[i] = 2.0f * x[i];\n"
      "}\n";
  // Hand-coarsened by 2: each work-item does items 2g and 2g + 1; the wrong one scales the
  // second item by 3.
  const auto variant = [](const char* second) {
    return std::string(
               "kernel void twice(global const float* x, global float* y, int n) {\n"
               "  int i = 2 * get_global_id(0);\n"
               "  if (i < n) y[i] = 2.0f * x[i];\n"
               "  if (i + 1 < n) y[i + 1] = ") +
           second + " * x[i + 1];\n}\n";
  };
  for (const auto& [second, expected] :
       {std::pair<const char*, Status>{"2.0f", Status::kOk}, {"3.0f", Status::kFactorDisagrees}}) {
    MeasureRequest request;
    request.source = variant(second);
    request.referenceSource = reference;
    request.coarsening = 2;
    request.gsizes = {4096};
    request.runs = 5;
    std::vector<KernelResult> results;
    measureIsolated(request, deviceCount, workerOptions(60),
                    [&](const KernelResult& r) { results.push_back(r); });
    REQUIRE(results.size() == 1);
    for (const Measurement& m : results[0].devices) {
      INFO(second << ": " << m.message);
      CHECK(m.status == expected);
      CHECK(m.globalSize == 4096);
      if (expected == Status::kFactorDisagrees) {
        CHECK_THAT(m.message, Contains("outputs differ from factor 1"));
      }
    }
  }
}
