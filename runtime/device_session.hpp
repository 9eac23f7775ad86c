// One OpenCL device opened for work, the state the driver and the kernel runner share: its handle
// and description, a context (its own or the application's) and a profiling queue; internal.
#pragma once

#include <optional>
#include <string>

#include "runtime/devices.hpp"
#include "runtime/opencl.hpp"

namespace deeptune::runtime {

class DeviceSession {
 public:
  /// Device `index` of listDevices(), in a context of its own.
  explicit DeviceSession(int index);
  /// `device` in the application's `context` (retained while the session lives).
  DeviceSession(cl_context context, cl_device_id device);

  cl_device_id id() const { return id_; }
  const DeviceInfo& info() const { return info_; }
  const ocl::Context& context() const { return context_; }
  const ocl::Queue& queue() const { return queue_; }

  /// `source` built for this device with buildOptions() and the host's `extraOptions`; `log`
  /// receives the build log either way; nullopt when it does not build.
  std::optional<ocl::Program> build(const std::string& source, const std::string& extraOptions,
                                    std::string& log) const;

 private:
  cl_device_id id_;
  DeviceInfo info_;
  ocl::Context context_;
  ocl::Queue queue_;
};

}  // namespace deeptune::runtime
