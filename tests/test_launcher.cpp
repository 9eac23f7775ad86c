// Launcher tests on PoCL: results reach the caller, decisions are cached, a missing device type
// runs elsewhere with a note, the application's cl_mem buffers and 2-D ranges, the fallback, the
// real model in this process beside PoCL, and the out-of-process prediction service.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "api/launcher.hpp"
#include "runtime/runtime_error.hpp"
#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using deeptune::api::Decision;
using deeptune::api::inputBuffer;
using deeptune::api::LaunchArg;
using deeptune::api::Launcher;
using deeptune::api::outputBuffer;
using deeptune::api::value;
using deeptune::runtime::RuntimeError;
using deeptune::test::ScratchDir;

namespace {

/// A stand-in for the model: always the same device type; records what it was asked.
class FixedModel : public deeptune::api::DeviceModel {
 public:
  struct Log {
    int calls = 0;
    uint64_t transfer = 0;
    size_t wgsize = 0;
  };
  FixedModel(std::string device, Log& log) : device_(std::move(device)), log_(log) {}
  Decision predictDevice(const std::string&, const std::string& kernel, uint64_t transfer,
                         size_t wgsize, const std::string&) override {
    ++log_.calls;
    log_.transfer = transfer;
    log_.wgsize = wgsize;
    Decision d;
    d.kernel = kernel;
    d.deviceType = device_;
    d.probability = 0.75;
    return d;
  }
  std::string modelPath() const override { return "fixed"; }

 private:
  std::string device_;
  Log& log_;
};

std::unique_ptr<FixedModel> fixedModel(const std::string& device, FixedModel::Log& log) {
  return std::make_unique<FixedModel>(device, log);
}

std::string saxpySource() {
  return deeptune::test::readWholeFile(deeptune::test::sourceDir() + "/kernels/saxpy.cl");
}

const deeptune::runtime::DeviceInfo& deviceOf(const Launcher& launcher, const Decision& d) {
  for (const auto& info : launcher.devices()) {
    if (info.id == d.device) return info;
  }
  FAIL("the decision's device is not one of the machine's");
  return launcher.devices().front();
}

bool machineHas(const Launcher& launcher, const std::string& type) {
  for (const auto& d : launcher.devices()) {
    if (d.type == type) return true;
  }
  return false;
}

/// y = 2 x + y over n elements through the launcher; checks every element.
deeptune::api::LaunchResult runSaxpy(Launcher& launcher, const std::string& source, int n) {
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  const auto result = launcher.launch(
      source, "saxpy",
      {inputBuffer(x.data(), n * sizeof(float)), outputBuffer(y.data(), n * sizeof(float)),
       value<float>(2.0f), value<int32_t>(n)},
      static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) REQUIRE(y[i] == 2.0f * i + 1.0f);
  return result;
}

}  // namespace

TEST_CASE("the launcher runs the kernel on the chosen device and returns its outputs",
          "[launcher]") {
  FixedModel::Log log;
  Launcher launcher(fixedModel("CPU", log));
  REQUIRE(machineHas(launcher, "CPU"));  // PoCL
  const auto result = runSaxpy(launcher, saxpySource(), 4096);
  CHECK(result.decision.deviceType == "CPU");
  CHECK(deviceOf(launcher, result.decision).type == "CPU");
  CHECK(result.decision.note.empty());
  CHECK_FALSE(result.decision.fallback);
  CHECK(result.decision.kernel == "saxpy");
  // The paper's transfer rule: x copied in (once), y in and back (twice).
  CHECK(result.decision.transferBytes == 4096 * 4 * 3);
  CHECK(log.transfer == 4096 * 4 * 3);
  CHECK(result.decision.wgsize == 256);
  CHECK(log.wgsize == 256);
  CHECK(result.kernelMs > 0);
}

TEST_CASE("decisions are cached by source hash, kernel and launch sizes", "[launcher]") {
  FixedModel::Log log;
  Launcher launcher(fixedModel("CPU", log));
  const std::string source = saxpySource();
  CHECK_FALSE(runSaxpy(launcher, source, 1024).decision.cached);
  CHECK(runSaxpy(launcher, source, 1024).decision.cached);
  CHECK(log.calls == 1);
  CHECK(launcher.predictions() == 1);
  CHECK_FALSE(runSaxpy(launcher, source, 2048).decision.cached);         // another transfer
  CHECK_FALSE(runSaxpy(launcher, source + "\n", 2048).decision.cached);  // another source
  CHECK(log.calls == 3);
  // The default work-group size divides the global size: 96 = 32 x 3.
  CHECK(runSaxpy(launcher, source, 96).decision.wgsize == 32);
}

TEST_CASE("a predicted device type the machine lacks runs elsewhere, with a note", "[launcher]") {
  FixedModel::Log log;
  Launcher launcher(fixedModel("GPU", log));
  const auto result = runSaxpy(launcher, saxpySource(), 512);
  CHECK(result.decision.deviceType == "GPU");
  if (machineHas(launcher, "GPU")) {
    CHECK(deviceOf(launcher, result.decision).type == "GPU");
    CHECK(result.decision.note.empty());
  } else {
    CHECK(deviceOf(launcher, result.decision).type == "CPU");
    CHECK_THAT(result.decision.note, Contains("no GPU among the candidate devices"));
  }
}

TEST_CASE("launch errors are clear", "[launcher]") {
  FixedModel::Log log;
  Launcher launcher(fixedModel("CPU", log));
  std::vector<float> x(64), y(64);
  const std::vector<LaunchArg> args = {inputBuffer(x.data(), 256), outputBuffer(y.data(), 256),
                                       value<float>(1.0f), value<int32_t>(64)};
  CHECK_THROWS_WITH(
      launcher.launch("__kernel void saxpy(__global float* x) { x[0] = y; }", "saxpy", args, 64),
      Contains("does not build") && Contains("undeclared identifier"));
  CHECK_THROWS_WITH(launcher.launch(saxpySource(), "nope", args, 64),
                    Contains("no kernel 'nope'") && Contains("saxpy"));
  CHECK_THROWS_WITH(launcher.launch(saxpySource(), "saxpy", {args[0], args[1]}, 64),
                    Contains("takes 4 arguments, the launch gives 2"));
  CHECK_THROWS_WITH(launcher.launch(saxpySource(), "saxpy", args, 64, 48),
                    Contains("not a multiple of the local size"));
  // A work-group no device allows is refused before the model is asked.
  const int calls = log.calls;
  CHECK_THROWS_WITH(launcher.launch(saxpySource(), "saxpy", args, {{1 << 20}, {1 << 20}}),
                    Contains("no candidate device can run this range"));
  CHECK(log.calls == calls);
}

TEST_CASE("the launcher runs 2-D ranges on the application's own cl_mem buffers", "[launcher]") {
  FixedModel::Log log;
  Launcher launcher(fixedModel("CPU", log));
  // The application's context and buffers, on the machine's first device.
  cl_device_id device = launcher.devices().front().id;
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  REQUIRE(status == CL_SUCCESS);
  const int width = 64, height = 32;
  std::vector<float> host(width * height);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i);
  const size_t bytes = host.size() * sizeof(float);
  cl_mem in =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host.data(), &status);
  REQUIRE(status == CL_SUCCESS);
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
  REQUIRE(status == CL_SUCCESS);
  const std::string transpose =
      "__kernel void transpose(__global const float* in, __global float* out, const int w,\n"
      "                        const int h) {\n"
      "  const int x = get_global_id(0);\n  const int y = get_global_id(1);\n"
      "  out[x * h + y] = in[y * w + x];\n}\n";
  const auto result = launcher.launch(transpose, "transpose",
                                      {deeptune::api::clBuffer(in), deeptune::api::clBuffer(out),
                                       value<int32_t>(width), value<int32_t>(height)},
                                      {{width, height}, {8, 4}});
  CHECK(result.decision.device == device);
  CHECK(result.decision.wgsize == 32);
  CHECK(result.decision.transferBytes == bytes + 2 * bytes);  // read-only once, the other twice
  std::vector<float> back(host.size());
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
  REQUIRE(status == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, bytes, back.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) REQUIRE(back[x * height + y] == host[y * width + x]);
  }
  // A 3-D range with the driver's choice of local size runs too.
  CHECK_NOTHROW(launcher.launch(transpose, "transpose",
                                {deeptune::api::clBuffer(in), deeptune::api::clBuffer(out),
                                 value<int32_t>(width), value<int32_t>(height)},
                                {{width, height, 1}}));
  clReleaseCommandQueue(queue);
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  clReleaseContext(context);
}

TEST_CASE("a missing or corrupt model makes the launcher fall back, flagged", "[launcher]") {
  ScratchDir dir("deeptune-launcher-fallback");
  const std::string corrupt = (dir.path / "corrupt.model").string();
  std::ofstream(corrupt) << "not a model at all";
  for (const std::string& model : {corrupt, (dir.path / "absent.model").string()}) {
    deeptune::api::AdvisorOptions options;
    options.model = model;
    Launcher launcher(options);
    CHECK_THAT(launcher.advisor().modelProblem(), Contains(model));
    const auto result = runSaxpy(launcher, saxpySource(), 1024);  // still runs, and right
    CHECK(result.decision.fallback);
    CHECK_THAT(result.decision.reason, Contains("model unavailable") && Contains(model));
    CHECK(result.decision.deviceType == "CPU");  // 12 KiB moved: the fallback says CPU
    CHECK(result.decision.probability == 0);
    CHECK(runSaxpy(launcher, saxpySource(), 1024).decision.cached);
  }
}

TEST_CASE("the bundled model runs in the launcher's process beside PoCL", "[launcher][model]") {
  // Clang 15 (the rewriter) and PoCL's LLVM 15 share this process: build, run, rewrite, run.
  Launcher launcher;
  CHECK(launcher.advisor().modelProblem().empty());
  for (int round = 0; round < 2; ++round) {
    const auto result = runSaxpy(launcher, saxpySource() + std::string(round, '\n'), 4096);
    CHECK_FALSE(result.decision.fallback);
    CHECK(result.decision.kernel == "saxpy");
    // The bundled AMD model's pinned decision for this launch (48 KiB moved, work-groups of 256):
    // retraining the model changes it (update the pin then, saying why). 0.59684 until the
    // models became three mean-pooled networks with boosted-tree heads (issue 28), 0.99796 until
    // the default became the source-boosted predictor (issue 41; amd-deeptune still says that),
    // 0.97458 until its probability was calibrated by temperature (issue 44).
    CHECK(result.decision.deviceType == "CPU");
    CHECK(result.decision.method == "source-boosted");
    CHECK(result.decision.probability == Approx(0.94063).margin(1e-4));
    CHECK(result.decision.tokens > 10);
    // The second source differs only in layout: it normalizes alike and shares the decision.
    CHECK(result.decision.cached == (round == 1));
  }
  CHECK(launcher.predictions() == 1);
  // A source the rewriter rejects falls back with the rewriter's reason, and is not thrown.
  std::vector<float> x(64);
  const Decision bad = launcher.choose("int x = ;", "k", {outputBuffer(x.data(), 256)}, 64);
  CHECK(bad.fallback);
  CHECK_THAT(bad.reason, Contains("launch source"));
}

TEST_CASE("the program's build options reach the model and the device build",
          "[launcher][model][source-options]") {
  // The kernel means something only with the host's -D: the rewriter must read it (else the
  // model sees an undefined name) and the device's build must get it.
  Launcher launcher;
  const std::string source =
      "__kernel void scaled(__global float* a) {\n  a[get_global_id(0)] *= FACTOR;\n}\n";
  std::vector<float> a(256, 1.0f);
  const auto result =
      launcher.launch(source, "scaled", {outputBuffer(a.data(), a.size() * sizeof(float))},
                      a.size(), 0, "-cl-mad-enable -DFACTOR=3.0f");
  CHECK(result.decision.kernel == "scaled");
  CHECK(result.decision.undeclared.empty());
  for (float v : a) REQUIRE(v == 3.0f);
  // Without the -D the device build fails with the compiler's message.
  CHECK_THROWS_WITH(launcher.launch(source, "scaled",
                                    {outputBuffer(a.data(), a.size() * sizeof(float))}, a.size()),
                    Contains("does not build") && Contains("FACTOR"));
  // A malformed -D falls back with the reason.
  const Decision bad = launcher.choose(
      source, "scaled", {outputBuffer(a.data(), a.size() * sizeof(float))}, a.size(), 0, "-D 9=1");
  CHECK(bad.fallback);
  CHECK_THAT(bad.reason, Contains("expected NAME or NAME=VALUE"));
}

TEST_CASE("the out-of-process prediction service answers with the bundled model",
          "[launcher][service]") {
  deeptune::api::AdvisorOptions options;
  options.outOfProcess = true;
  options.deeptuneExecutable = deeptune::test::cliPath();
  Launcher launcher(options);
  CHECK(launcher.advisor().modelProblem().empty());
  const auto result = runSaxpy(launcher, saxpySource(), 4096);
  CHECK_FALSE(result.decision.fallback);
  CHECK(result.decision.kernel == "saxpy");
  // The same pinned decision as in process: the service runs the same model on the same text.
  CHECK(result.decision.deviceType == "CPU");
  CHECK(result.decision.method == "source-boosted");  // the service says which predictor
  CHECK(result.decision.probability == Approx(0.94063).margin(1e-4));
  CHECK(runSaxpy(launcher, saxpySource(), 4096).decision.cached);
  CHECK(launcher.predictions() == 1);
  // A service that cannot start is a fallback with its reason, not an exception.
  options.deeptuneExecutable = "/nonexistent/deeptune";
  Launcher without(options);
  CHECK_THAT(without.advisor().modelProblem(), Contains("/nonexistent/deeptune"));
  CHECK(runSaxpy(without, saxpySource(), 256).decision.fallback);
}
