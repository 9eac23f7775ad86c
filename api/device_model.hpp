// DeviceModel: the model-runner interface the advisor asks (MLGO's runner): source + sizes -> type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "deeptune/api/decision.hpp"

namespace deeptune::api {

/// Answers "CPU or GPU" for one kernel launch. Implementations: Predictor (in this process),
/// PredictionClient (a `deeptune __predict-server` process), test stand-ins. They may throw any
/// std::exception; the advisor turns that into a fallback decision. Not required to be
/// thread-safe: the advisor serializes its calls.
class DeviceModel {
 public:
  virtual ~DeviceModel();
  /// The model's part of a Decision (kernel, deviceType, probability, tokens, normalizedHash) for
  /// `kernel` of `source` (empty: its only kernel) moving `transferBytes` bytes with work-group
  /// size `wgsize`; `buildOptions` are the program's clBuildProgram options (their -D/-I change
  /// what the source means).
  virtual Decision predictDevice(const std::string& source, const std::string& kernel,
                                 uint64_t transferBytes, size_t wgsize,
                                 const std::string& buildOptions) = 0;
  /// A hash of the normalized kernel predictDevice() would read (rewrite and encode, no
  /// network), so sources that normalize alike share cached decisions; 0 when this runner
  /// cannot tell it cheaply (the default).
  virtual uint64_t normalizedHash(const std::string& source, const std::string& kernel,
                                  const std::string& buildOptions);
  /// The model file it answers with (for logs and error messages).
  virtual std::string modelPath() const = 0;
};

}  // namespace deeptune::api
