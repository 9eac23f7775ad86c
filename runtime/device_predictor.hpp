// The decision interface the runtime is handed: which device a kernel launch should run on.
#pragma once

#include <string>

namespace deeptune::runtime {

/// Decides the device for a kernel launch. The runtime never includes a model: api/ plugs the
/// LibTorch predictor in, tests a mock. Implementations may throw their own exception type.
class DevicePredictor {
 public:
  virtual ~DevicePredictor();
  /// The device for `kernel` of `source` moving `transferBytes` bytes (SPEC.md section 4 rule)
  /// with work-group size `wgsize`: "CPU" or "GPU".
  virtual std::string predictDevice(const std::string& source, const std::string& kernel,
                                    double transferBytes, int wgsize) = 0;
};

}  // namespace deeptune::runtime
