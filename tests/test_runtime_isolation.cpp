// Tests of isolation: kernel measurements in worker processes (the built deeptune binary) where a
// hang becomes TIMEOUT and a crash CRASH, the parent unharmed (the child processes themselves:
// test_child_process.cpp).
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "data/data_error.hpp"
#include "runtime/devices.hpp"
#include "runtime/isolation.hpp"
#include "runtime/runtime_error.hpp"
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

}  // namespace

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

TEST_CASE("a worker that cannot start is a RuntimeError; what onResult throws passes on",
          "[runtime][isolation]") {
  IsolationOptions missing = workerOptions(30);
  missing.workerCommand = {"/nonexistent/deeptune-measure-worker"};
  CHECK_THROWS_AS(listDevicesIsolated(missing), RuntimeError);
  CHECK_THROWS_WITH(listDevicesIsolated(missing),
                    Contains("cannot start /nonexistent/deeptune-measure-worker"));
  MeasureRequest request;
  request.source = testKernel("ok.cl");
  request.gsizes = {64};
  request.runs = 1;
  CHECK_THROWS_AS(measureIsolated(request, 1, missing, [](const KernelResult&) {}), RuntimeError);
  // A DataError of the caller's (say, a CSV it cannot write) stays a DataError.
  const size_t devices = listDevicesIsolated(workerOptions(30)).size();
  REQUIRE(devices > 0);
  CHECK_THROWS_AS(measureIsolated(request, devices, workerOptions(30),
                                  [](const KernelResult&) {
                                    throw deeptune::data::DataError("out.csv", 1, 1, "full");
                                  }),
                  deeptune::data::DataError);
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
