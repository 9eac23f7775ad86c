// PredictionClient: the device predictor that asks a `deeptune __predict-server` process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/device_predictor.hpp"

namespace deeptune::api {

/// Starts `deeptune __predict-server` (argv as given, e.g. {"/usr/bin/deeptune",
/// "__predict-server", "--platform", "amd"}) and asks it for each decision over one-line
/// records. Throws runtime::RuntimeError when the service does not start, reports an error, or
/// does not answer within `timeoutSeconds`.
class PredictionClient : public runtime::DevicePredictor {
 public:
  PredictionClient(const std::vector<std::string>& serverCommand, double timeoutSeconds);
  ~PredictionClient() override;

  runtime::DeviceChoice predictDevice(const std::string& source, const std::string& kernel,
                                      uint64_t transferBytes, size_t wgsize,
                                      const std::string& buildOptions) override;

  /// The model file the service loaded.
  const std::string& modelPath() const { return modelPath_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string modelPath_;
};

/// The `deeptune` executable: `explicitPath` if given, else $DEEPTUNE_EXECUTABLE, else `deeptune`
/// beside this program, else the installed or built one this library was configured with.
/// Throws runtime::RuntimeError naming the places it looked.
std::string findDeeptuneExecutable(const std::string& explicitPath);

}  // namespace deeptune::api
