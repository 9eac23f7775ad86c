// `deeptune validate` (device mapping): each kernel run on every device, the model's device for
// its measured launch, the verdict, and the report of it as text or JSON.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "api/decision.hpp"
#include "data/source_options.hpp"
#include "runtime/devices.hpp"
#include "runtime/isolation.hpp"
#include "runtime/verdict.hpp"

namespace deeptune::api {

class Predictor;

/// What `validate` runs: the kernels of one source at one size.
struct DeviceValidationLaunch {
  std::string file;    ///< the source's name in messages and reports
  std::string source;  ///< its text
  std::string kernel;  ///< "": every kernel of the source
  size_t gsize = 0;
  size_t wgsize = 0;       ///< 0: the driver's default, min(S, 256)
  std::string buildFlags;  ///< the host's -D/-I for clBuildProgram
  data::SourceOptions sourceOptions;
};

/// One kernel validated.
struct DeviceValidation {
  runtime::KernelResult result;  ///< its runs on every device
  runtime::LaunchSizes sizes;    ///< what the model was told
  Decision prediction;
  std::string predicted;  ///< the model's device name (models of measured devices), else its type
  runtime::DeviceVerdict verdict;
};

/// "" when every device `modelDevices` names is among `devices`; else the message that says
/// which is missing: "validate: MODEL decides between A and B; this machine has no ...".
std::string missingModelDevice(const std::string& modelPath,
                               const std::vector<std::string>& modelDevices,
                               const std::vector<runtime::DeviceInfo>& devices);

/// Runs the launch's kernels on every device (runtime::measureIsolated), then, kernel by kernel,
/// asks `predictor` for the device of the measured launch and judges it (runtime::
/// judgeDeviceChoice, or judgeNamedDeviceChoice for a model of named devices), calling
/// `onKernel` with each. Throws runtime::RuntimeError for a kernel no device got a payload for
/// (when it comes) and, after the last kernel, when some kernel ran to the end on no device;
/// the predictor's errors as they come.
void validateDevices(Predictor& predictor, const DeviceValidationLaunch& launch,
                     const std::vector<runtime::DeviceInfo>& devices,
                     const runtime::IsolationOptions& isolation,
                     const std::function<void(const DeviceValidation&)>& onKernel);

/// The text report of one kernel: the launch, the prediction, each device's time or status,
/// the verdict; lines ending with '\n'.
std::string deviceValidationText(const DeviceValidation& validation,
                                 const DeviceValidationLaunch& launch,
                                 const std::vector<runtime::DeviceInfo>& devices);

/// The same as one JSON object on one line (no '\n'): file, kernel, gsize, wgsize, transfer,
/// predicted, probability, devices, fastest, note, correct, of_oracle.
std::string deviceValidationJson(const DeviceValidation& validation,
                                 const DeviceValidationLaunch& launch,
                                 const std::vector<runtime::DeviceInfo>& devices);

}  // namespace deeptune::api
