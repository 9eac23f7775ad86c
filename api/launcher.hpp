// Launcher: the advisor chooses the device for a kernel launch, the runtime runs it there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "deeptune/api/advisor.hpp"
#include "deeptune/api/decision.hpp"
#include "deeptune/api/device_legality.hpp"
#include "deeptune/runtime/devices.hpp"
#include "deeptune/runtime/launch_arg.hpp"

namespace deeptune::api {

using runtime::LaunchArg;

/// A `const __global` buffer the kernel only reads: copied to the device.
inline LaunchArg inputBuffer(const void* data, size_t bytes) {
  return {LaunchArg::Kind::kInput, data, nullptr, bytes, {}, nullptr};
}
/// A `__global` buffer the kernel writes: copied to the device and read back into `data`.
inline LaunchArg outputBuffer(void* data, size_t bytes) {
  return {LaunchArg::Kind::kOutput, data, data, bytes, {}, nullptr};
}
/// The application's own buffer: the launch runs in its context, on one of its devices.
inline LaunchArg clBuffer(cl_mem buffer) {
  return {LaunchArg::Kind::kBuffer, nullptr, nullptr, 0, {}, buffer};
}
/// `bytes` of `__local` memory per work-group.
inline LaunchArg localMemory(size_t bytes) {
  return {LaunchArg::Kind::kLocal, nullptr, nullptr, bytes, {}, nullptr};
}
/// A scalar or vector argument passed by value (e.g. `cl_float`, `cl_uint`, `cl_float4`).
template <typename T>
LaunchArg value(const T& v) {
  static_assert(std::is_trivially_copyable_v<T>, "kernel values must be plain data");
  LaunchArg arg{LaunchArg::Kind::kValue, nullptr, nullptr, sizeof(T), {}, nullptr};
  arg.value.resize(sizeof(T));
  std::memcpy(arg.value.data(), &v, sizeof(T));
  return arg;
}

/// A finished launch: the decision and the time of its parts on the device.
struct LaunchResult {
  Decision decision;
  double h2dMs = 0, kernelMs = 0, d2hMs = 0;
};

/// Chooses the device of kernel launches with an Advisor (in this process by default) and runs
/// them there. With host data (inputBuffer, outputBuffer) the candidates are all the machine's
/// devices, each in a context of the launcher's; with the application's cl_mem buffers
/// (clBuffer) they are the devices of the buffers' context, and the launch runs in that
/// context. A model that cannot answer falls back (Decision::fallback). Not thread-safe (the
/// advisor it holds is).
class Launcher {
 public:
  /// Throws runtime::RuntimeError when the machine has no OpenCL device (a model that cannot
  /// load is not an error: decisions fall back).
  explicit Launcher(AdvisorOptions options = {});
  /// With another model runner (a test stand-in, a model of the user's own kind).
  Launcher(std::unique_ptr<DeviceModel> model, AdvisorOptions options = {});
  ~Launcher();
  Launcher(Launcher&&) noexcept;
  Launcher& operator=(Launcher&&) noexcept;

  /// The decision for running `kernel` of `source` over `range` with `args`. `buildOptions`
  /// are the program's clBuildProgram options: their -D/-I reach the model's rewriter
  /// (relative -I folders from the current folder), all of them the device's build. Throws
  /// ApiError (api_error.hpp) for a malformed range or one no candidate can run.
  Decision choose(const std::string& source, const std::string& kernel,
                  const std::vector<LaunchArg>& args, const NDRange& range,
                  const std::string& buildOptions = "");

  /// choose(), then runs the kernel on that device; outputs are in the caller's buffers when it
  /// returns. A local size the kernel cannot run on that device (CL_KERNEL_WORK_GROUP_SIZE)
  /// moves it to another candidate, with a note. Throws runtime::RuntimeError (build error,
  /// wrong arguments, OpenCL failure).
  LaunchResult launch(const std::string& source, const std::string& kernel,
                      const std::vector<LaunchArg>& args, const NDRange& range,
                      const std::string& buildOptions = "");

  /// 1-D forms: `localSize` 0 is the largest power of two up to 256 that divides globalSize,
  /// halved at launch while it exceeds what the kernel allows on the device.
  Decision choose(const std::string& source, const std::string& kernel,
                  const std::vector<LaunchArg>& args, size_t globalSize, size_t localSize = 0,
                  const std::string& buildOptions = "");
  LaunchResult launch(const std::string& source, const std::string& kernel,
                      const std::vector<LaunchArg>& args, size_t globalSize, size_t localSize = 0,
                      const std::string& buildOptions = "");

  /// The machine's OpenCL devices.
  const std::vector<runtime::DeviceInfo>& devices() const;
  /// How many decisions asked the model (not served from the cache).
  size_t predictions() const;
  /// The advisor it decides with.
  Advisor& advisor();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace deeptune::api
