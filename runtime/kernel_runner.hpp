// KernelRunner: runs one kernel launch with the caller's own data on one OpenCL device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/stats.hpp"

namespace deeptune::runtime {

/// One kernel argument of an application's launch, in the kernel's argument order.
struct LaunchArg {
  enum class Kind {
    kInput,   ///< a global buffer copied to the device only (a `const __global` pointer)
    kOutput,  ///< a global buffer copied to the device and read back into `output`
    kLocal,   ///< `bytes` of local memory per work-group
    kValue,   ///< a scalar or vector passed by value
  };
  Kind kind = Kind::kValue;
  const void* input = nullptr;  ///< kInput, kOutput: the bytes copied in
  void* output = nullptr;       ///< kOutput: where the result is read back (may equal `input`)
  size_t bytes = 0;
  std::vector<unsigned char> value;  ///< kValue

  /// The bytes the launch moves by the paper's rule (SPEC.md section 4): inputs once, outputs
  /// twice (in and back); local memory and values do not count.
  static uint64_t transferBytes(const std::vector<LaunchArg>& args);
};

/// Runs kernels with caller-supplied arguments on one device (the launcher's device side). The
/// program of each source is built once per runner and cached by source hash. OpenCL is
/// initialized in this process: start child processes (posix_spawn) only, never fork. Not
/// thread-safe.
class KernelRunner {
 public:
  /// Opens device `deviceIndex` of listDevices(). Throws RuntimeError.
  explicit KernelRunner(int deviceIndex);
  ~KernelRunner();
  KernelRunner(const KernelRunner&) = delete;
  KernelRunner& operator=(const KernelRunner&) = delete;

  const DeviceInfo& device() const;

  /// Copies the inputs in, runs `kernel` of `source` over `globalSize` work-items in groups of
  /// `localSize` (which must divide it; with `shrinkToKernel`, halved while it exceeds what the
  /// kernel allows on this device) and reads the outputs back; the program is built with
  /// `buildOptions` added to buildOptions(); blocks until done. Returns the
  /// time of each part. Throws RuntimeError on a build error (with the log's first errors),
  /// an unknown kernel, an argument count that does not match, or a failed OpenCL call.
  RunTiming run(const std::string& source, const std::string& kernel,
                const std::vector<LaunchArg>& args, size_t globalSize, size_t localSize,
                bool shrinkToKernel = false, const std::string& buildOptions = "");

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace deeptune::runtime
