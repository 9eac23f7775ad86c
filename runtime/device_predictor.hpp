// The decision interface the runtime is handed: which device a kernel launch should run on.
#pragma once

#include <cstdint>
#include <string>

namespace deeptune::runtime {

/// A model's choice for one launch.
struct DeviceChoice {
  std::string kernel;      ///< the kernel's name in the source
  std::string device;      ///< "CPU" or "GPU"
  double probability = 0;  ///< the model's probability of `device`
};

/// Decides the device for a kernel launch. The runtime never includes a model: api/ plugs the
/// model in (a prediction service process), tests a stand-in. Implementations may throw their
/// own exception type.
class DevicePredictor {
 public:
  virtual ~DevicePredictor();
  /// The device for `kernel` of `source` (empty: its only kernel) moving `transferBytes` bytes
  /// (SPEC.md section 4 rule) with work-group size `wgsize`; `buildOptions` are the program's
  /// clBuildProgram options (their -D/-I change what the source means).
  virtual DeviceChoice predictDevice(const std::string& source, const std::string& kernel,
                                     uint64_t transferBytes, size_t wgsize,
                                     const std::string& buildOptions) = 0;
};

}  // namespace deeptune::runtime
