// KernelRunner: runs one kernel launch with the caller's own data on one OpenCL device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/launch_arg.hpp"
#include "runtime/stats.hpp"

namespace deeptune::runtime {

/// Runs kernels with caller-supplied arguments on one device (the launcher's device side). The
/// program of each source is built once per runner and cached by source hash. OpenCL is
/// initialized in this process: start child processes (posix_spawn) only, never fork. Not
/// thread-safe.
class KernelRunner {
 public:
  /// Opens device `deviceIndex` of listDevices() in a context of its own. Throws RuntimeError.
  explicit KernelRunner(int deviceIndex);
  /// Runs on `device` in the application's `context` (retained, not owned), on a profiling
  /// queue of its own: the application's cl_mem buffers of that context can be arguments.
  KernelRunner(cl_context context, cl_device_id device);
  ~KernelRunner();
  KernelRunner(const KernelRunner&) = delete;
  KernelRunner& operator=(const KernelRunner&) = delete;

  const DeviceInfo& device() const;

  /// Copies the inputs in, runs `kernel` of `source` over the 1-3-D `global` range in groups of
  /// `local` (empty: the driver chooses; each must divide its global size; with
  /// `shrinkToKernel`, a 1-D local size is halved while it exceeds what the kernel allows on
  /// this device) and reads the outputs back; the program is built with `buildOptions` added
  /// to buildOptions(); blocks until done. Returns the time of each part. Throws RuntimeError
  /// on a build error (with the log's first errors), an unknown kernel, an argument count that
  /// does not match, or a failed OpenCL call.
  RunTiming run(const std::string& source, const std::string& kernel,
                const std::vector<LaunchArg>& args, const std::vector<size_t>& global,
                std::vector<size_t> local, bool shrinkToKernel = false,
                const std::string& buildOptions = "");

  /// CL_KERNEL_WORK_GROUP_SIZE of `kernel` of `source` on this device (builds it the first
  /// time; remembered). Throws as run() does.
  size_t kernelWorkGroupLimit(const std::string& source, const std::string& kernel,
                              const std::string& buildOptions = "");

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace deeptune::runtime
