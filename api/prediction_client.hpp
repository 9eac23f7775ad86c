// PredictionClient: the device predictor that asks a `deeptune __predict-server` process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "deeptune/api/device_model.hpp"

namespace deeptune::api {

/// The out-of-process model runner: starts `deeptune __predict-server` (argv as given, e.g.
/// {"/usr/bin/deeptune", "__predict-server", "--platform", "amd"}) and asks it for each decision
/// over one-line records. For OpenCL drivers that load an LLVM other than the rewriter's, which
/// cannot share a process with it. Throws ApiError (api_error.hpp) when the service does not
/// start, reports an error, gives an answer it cannot use, or does not answer within
/// `timeoutSeconds` (the messages name which).
class PredictionClient : public DeviceModel {
 public:
  PredictionClient(const std::vector<std::string>& serverCommand, double timeoutSeconds);
  ~PredictionClient() override;

  Decision predictDevice(const std::string& source, const std::string& kernel,
                         uint64_t transferBytes, size_t wgsize,
                         const std::string& buildOptions) override;

  /// The model file the service loaded.
  std::string modelPath() const override { return modelPath_; }

 private:
  void connect(const std::vector<std::string>& serverCommand, double timeoutSeconds);

  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string modelPath_;
};

/// The `deeptune` executable: `explicitPath` if given, else $DEEPTUNE_EXECUTABLE, else `deeptune`
/// beside this program, else `deeptune` in the bin folder beside this library's lib folder, else
/// the first on $PATH. Throws ApiError naming the places it looked.
std::string findDeeptuneExecutable(const std::string& explicitPath);

}  // namespace deeptune::api
