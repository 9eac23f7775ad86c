// Launcher: an OpenCL application asks the model which device runs a kernel launch, and runs it
// there. Links the runtime and the OpenCL ICD loader only (no LibTorch, no Clang).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/device_predictor.hpp"
#include "runtime/devices.hpp"
#include "runtime/kernel_runner.hpp"

namespace deeptune::api {

using runtime::LaunchArg;

/// A `const __global` buffer the kernel only reads: copied to the device.
inline LaunchArg inputBuffer(const void* data, size_t bytes) {
  return {LaunchArg::Kind::kInput, data, nullptr, bytes, {}};
}
/// A `__global` buffer the kernel writes: copied to the device and read back into `data`.
inline LaunchArg outputBuffer(void* data, size_t bytes) {
  return {LaunchArg::Kind::kOutput, data, data, bytes, {}};
}
/// `bytes` of `__local` memory per work-group.
inline LaunchArg localMemory(size_t bytes) {
  return {LaunchArg::Kind::kLocal, nullptr, nullptr, bytes, {}};
}
/// A scalar or vector argument passed by value (e.g. `cl_float`, `cl_uint`, `cl_float4`).
template <typename T>
LaunchArg value(const T& v) {
  static_assert(std::is_trivially_copyable_v<T>, "kernel values must be plain data");
  LaunchArg arg{LaunchArg::Kind::kValue, nullptr, nullptr, sizeof(T), {}};
  arg.value.resize(sizeof(T));
  std::memcpy(arg.value.data(), &v, sizeof(T));
  return arg;
}

/// How the launcher reaches the model.
struct LauncherOptions {
  std::string model;               ///< devmap model file; empty: the bundled model of `platform`
  std::string platform = "amd";    ///< bundled model: amd or nvidia
  std::string deeptuneExecutable;  ///< empty: $DEEPTUNE_EXECUTABLE, beside this program, installed
  double predictionTimeoutSeconds = 120;  ///< per answer of the prediction service
};

/// Where a launch runs, and why.
struct LaunchDecision {
  std::string kernel;
  std::string predicted;       ///< the model's choice: "CPU" or "GPU"
  double probability = 0;      ///< the model's probability of `predicted`
  bool cached = false;         ///< the decision came from the cache (the model was not asked)
  uint64_t transferBytes = 0;  ///< what the model was told the launch moves
  size_t wgsize = 0;           ///< the work-group size the model was told and the launch uses
                               ///< (a default one is halved if the device allows less)
  runtime::DeviceInfo device;  ///< the device that runs it
  std::string note;            ///< empty, or why `device` is not of the predicted type
};

/// A finished launch: the decision and the time of its parts on the device.
struct LaunchResult {
  LaunchDecision decision;
  double h2dMs = 0, kernelMs = 0, d2hMs = 0;
};

/// Chooses the device for kernel launches with a DeepTune model and runs them there. Decisions
/// are cached by (source hash, kernel, transfer, work-group size); the model runs in a separate
/// prediction-service process (`deeptune __predict-server`), because an OpenCL driver with its own
/// LLVM (PoCL) cannot share a process with the rewriter's Clang. When the machine has no device of
/// the predicted type, the launch runs on the first device of the other type and says so in
/// `note`. Not thread-safe.
class Launcher {
 public:
  /// Starts the prediction service, then opens OpenCL. Throws runtime::RuntimeError when the
  /// service or the model cannot be started or the machine has no OpenCL device.
  explicit Launcher(const LauncherOptions& options = {});
  /// With another decision maker (a test stand-in, an in-process model).
  explicit Launcher(std::unique_ptr<runtime::DevicePredictor> predictor);
  ~Launcher();
  Launcher(Launcher&&) noexcept;
  Launcher& operator=(Launcher&&) noexcept;

  /// The decision for running `kernel` of `source` over `globalSize` work-items in groups of
  /// `localSize` (0: the largest power of two up to 256 that divides globalSize) with `args`.
  /// `buildOptions` are the program's clBuildProgram options: their -D/-I reach the model's
  /// rewriter (relative -I folders from the current folder), all of them the device's build.
  LaunchDecision choose(const std::string& source, const std::string& kernel,
                        const std::vector<LaunchArg>& args, size_t globalSize, size_t localSize = 0,
                        const std::string& buildOptions = "");

  /// choose(), then runs the kernel on that device; outputs are in the caller's buffers when it
  /// returns. Throws runtime::RuntimeError (build error, wrong arguments, OpenCL failure).
  LaunchResult launch(const std::string& source, const std::string& kernel,
                      const std::vector<LaunchArg>& args, size_t globalSize, size_t localSize = 0,
                      const std::string& buildOptions = "");

  /// The machine's OpenCL devices.
  const std::vector<runtime::DeviceInfo>& devices() const;
  /// How many times the model was asked (decisions not served from the cache).
  size_t predictions() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace deeptune::api
