// Launcher tests on PoCL: results reach the caller, decisions are cached, a missing device type
// falls back with a note, errors are clear; and the real prediction service end to end.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "api/launcher.hpp"
#include "api/prediction_client.hpp"
#include "runtime/runtime_error.hpp"
#include "tests/cli_runner.hpp"
#include "tests/test_paths.hpp"

using Catch::Matchers::Contains;
using deeptune::api::inputBuffer;
using deeptune::api::LaunchArg;
using deeptune::api::Launcher;
using deeptune::api::outputBuffer;
using deeptune::api::value;
using deeptune::runtime::DeviceChoice;
using deeptune::runtime::RuntimeError;

namespace {

/// A stand-in for the model: always the same device; records what it was asked.
class FixedPredictor : public deeptune::runtime::DevicePredictor {
 public:
  struct Log {
    int calls = 0;
    uint64_t transfer = 0;
    size_t wgsize = 0;
  };
  FixedPredictor(std::string device, Log& log) : device_(std::move(device)), log_(log) {}
  DeviceChoice predictDevice(const std::string&, const std::string& kernel, uint64_t transfer,
                             size_t wgsize, const std::string&) override {
    ++log_.calls;
    log_.transfer = transfer;
    log_.wgsize = wgsize;
    return {kernel, device_, 0.75};
  }

 private:
  std::string device_;
  Log& log_;
};

std::string saxpySource() {
  return deeptune::test::readWholeFile(deeptune::test::sourceDir() + "/kernels/saxpy.cl");
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
  FixedPredictor::Log log;
  Launcher launcher(std::make_unique<FixedPredictor>("CPU", log));
  REQUIRE(machineHas(launcher, "CPU"));  // PoCL
  const auto result = runSaxpy(launcher, saxpySource(), 4096);
  CHECK(result.decision.predicted == "CPU");
  CHECK(result.decision.device.type == "CPU");
  CHECK(result.decision.note.empty());
  CHECK(result.decision.kernel == "saxpy");
  // The paper's transfer rule: x copied in (once), y in and back (twice).
  CHECK(result.decision.transferBytes == 4096 * 4 * 3);
  CHECK(log.transfer == 4096 * 4 * 3);
  CHECK(result.decision.wgsize == 256);
  CHECK(log.wgsize == 256);
  CHECK(result.kernelMs > 0);
}

TEST_CASE("decisions are cached by source hash, kernel and launch sizes", "[launcher]") {
  FixedPredictor::Log log;
  Launcher launcher(std::make_unique<FixedPredictor>("CPU", log));
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
  FixedPredictor::Log log;
  Launcher launcher(std::make_unique<FixedPredictor>("GPU", log));
  const auto result = runSaxpy(launcher, saxpySource(), 512);
  CHECK(result.decision.predicted == "GPU");
  if (machineHas(launcher, "GPU")) {
    CHECK(result.decision.device.type == "GPU");
    CHECK(result.decision.note.empty());
  } else {
    CHECK(result.decision.device.type == "CPU");
    CHECK_THAT(result.decision.note, Contains("no GPU device on this machine"));
  }
}

TEST_CASE("launch errors are clear", "[launcher]") {
  FixedPredictor::Log log;
  Launcher launcher(std::make_unique<FixedPredictor>("CPU", log));
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
                    Contains("multiple of the work-group size"));
}

TEST_CASE("the prediction service answers with the bundled model", "[launcher][service]") {
  deeptune::api::LauncherOptions options;
  options.deeptuneExecutable = deeptune::test::cliPath();
  Launcher launcher(options);
  const auto result = runSaxpy(launcher, saxpySource(), 4096);
  CHECK(result.decision.kernel == "saxpy");
  CHECK((result.decision.predicted == "CPU" || result.decision.predicted == "GPU"));
  CHECK(result.decision.probability >= 0.5);
  CHECK(result.decision.probability <= 1.0);
  CHECK(runSaxpy(launcher, saxpySource(), 4096).decision.cached);
  CHECK(launcher.predictions() == 1);
  // A source the rewriter rejects is an error; the service stays usable.
  std::vector<float> x(64);
  CHECK_THROWS_WITH(launcher.choose("int x = ;", "k", {outputBuffer(x.data(), 256)}, 64),
                    Contains("launch source"));
  CHECK(runSaxpy(launcher, saxpySource(), 128).decision.probability >= 0.5);
}

TEST_CASE("the program's build options reach the model and the device build",
          "[launcher][service][source-options]") {
  // The kernel means something only with the host's -D: the service's rewriter must read it
  // (else the model sees an undefined name) and the device's build must get it.
  deeptune::api::LauncherOptions options;
  options.deeptuneExecutable = deeptune::test::cliPath();
  Launcher launcher(options);
  const std::string source =
      "__kernel void scaled(__global float* a) {\n  a[get_global_id(0)] *= FACTOR;\n}\n";
  std::vector<float> a(256, 1.0f);
  const auto result =
      launcher.launch(source, "scaled", {outputBuffer(a.data(), a.size() * sizeof(float))},
                      a.size(), 0, "-cl-mad-enable -DFACTOR=3.0f");
  CHECK(result.decision.kernel == "scaled");
  for (float v : a) REQUIRE(v == 3.0f);
  // Other options are a different program: asked and built again, and without the -D the device
  // build fails with the compiler's message.
  CHECK_THROWS_WITH(launcher.launch(source, "scaled",
                                    {outputBuffer(a.data(), a.size() * sizeof(float))}, a.size()),
                    Contains("does not build") && Contains("FACTOR"));
  CHECK(launcher.predictions() == 2);
  // A malformed -D is refused by the service with its reason.
  CHECK_THROWS_WITH(
      launcher.choose(source, "scaled", {outputBuffer(a.data(), a.size() * sizeof(float))},
                      a.size(), 0, "-D 9=1"),
      Contains("expected NAME or NAME=VALUE"));
}

TEST_CASE("a prediction service that cannot load its model is a clear error", "[launcher]") {
  deeptune::api::LauncherOptions options;
  options.deeptuneExecutable = deeptune::test::cliPath();
  options.model = "/nonexistent/devmap.model";
  CHECK_THROWS_WITH(Launcher(options), Contains("/nonexistent/devmap.model"));
  options.deeptuneExecutable = "/nonexistent/deeptune";
  CHECK_THROWS_AS(Launcher(options), RuntimeError);
}
