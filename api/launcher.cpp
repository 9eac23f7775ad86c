// Launcher: cached model decisions (via the prediction service) and launches on the chosen device.
#include "api/launcher.hpp"

#include <functional>
#include <map>
#include <tuple>

#include "api/prediction_client.hpp"
#include "runtime/runtime_error.hpp"

namespace deeptune::api {
namespace {

/// The default work-group size: the largest power of two up to 256 that divides globalSize.
size_t defaultLocalSize(size_t globalSize) {
  size_t local = 256;
  while (local > 1 && globalSize % local != 0) local /= 2;
  return local;
}

/// (source hash, kernel, transfer, work-group size, build options).
using DecisionKey = std::tuple<size_t, std::string, uint64_t, size_t, std::string>;

}  // namespace

struct Launcher::Impl {
  std::unique_ptr<runtime::DevicePredictor> predictor;
  std::vector<runtime::DeviceInfo> devices;
  std::map<int, std::unique_ptr<runtime::KernelRunner>>
      runners;  ///< by device index, opened lazily
  std::map<DecisionKey, runtime::DeviceChoice> cache;
  size_t predictions = 0;

  explicit Impl(std::unique_ptr<runtime::DevicePredictor> chooser)
      : predictor(std::move(chooser)), devices(runtime::listDevices()) {
    if (devices.empty()) throw runtime::RuntimeError("launcher: no OpenCL device on this machine");
  }

  runtime::KernelRunner& runner(int index) {
    auto& slot = runners[index];
    if (!slot) slot = std::make_unique<runtime::KernelRunner>(index);
    return *slot;
  }

  /// The first device of `type`, else the first of another type (with a note).
  const runtime::DeviceInfo& deviceFor(const std::string& type, std::string& note) const {
    for (const runtime::DeviceInfo& d : devices) {
      if (d.type == type) return d;
    }
    note = "no " + type + " device on this machine; running on " + devices.front().type + " " +
           devices.front().name;
    return devices.front();
  }
};

Launcher::Launcher(const LauncherOptions& options) {
  // The service is started before this process initializes OpenCL (runtime::listDevices).
  std::vector<std::string> command = {findDeeptuneExecutable(options.deeptuneExecutable),
                                      "__predict-server"};
  if (!options.model.empty()) {
    command.insert(command.end(), {"--model", options.model});
  } else {
    command.insert(command.end(), {"--platform", options.platform});
  }
  auto client = std::make_unique<PredictionClient>(command, options.predictionTimeoutSeconds);
  impl_ = std::make_unique<Impl>(std::move(client));
}

Launcher::Launcher(std::unique_ptr<runtime::DevicePredictor> predictor)
    : impl_(std::make_unique<Impl>(std::move(predictor))) {}

Launcher::~Launcher() = default;
Launcher::Launcher(Launcher&&) noexcept = default;
Launcher& Launcher::operator=(Launcher&&) noexcept = default;

const std::vector<runtime::DeviceInfo>& Launcher::devices() const { return impl_->devices; }
size_t Launcher::predictions() const { return impl_->predictions; }

LaunchDecision Launcher::choose(const std::string& source, const std::string& kernel,
                                const std::vector<LaunchArg>& args, size_t globalSize,
                                size_t localSize, const std::string& buildOptions) {
  LaunchDecision decision;
  decision.transferBytes = LaunchArg::transferBytes(args);
  decision.wgsize = localSize != 0 ? localSize : defaultLocalSize(globalSize);
  const DecisionKey key{std::hash<std::string>{}(source), kernel, decision.transferBytes,
                        decision.wgsize, buildOptions};
  auto found = impl_->cache.find(key);
  decision.cached = found != impl_->cache.end();
  if (!decision.cached) {
    found =
        impl_->cache
            .emplace(key, impl_->predictor->predictDevice(source, kernel, decision.transferBytes,
                                                          decision.wgsize, buildOptions))
            .first;
    ++impl_->predictions;
  }
  decision.kernel = found->second.kernel.empty() ? kernel : found->second.kernel;
  decision.predicted = found->second.device;
  decision.probability = found->second.probability;
  decision.device = impl_->deviceFor(decision.predicted, decision.note);
  return decision;
}

LaunchResult Launcher::launch(const std::string& source, const std::string& kernel,
                              const std::vector<LaunchArg>& args, size_t globalSize,
                              size_t localSize, const std::string& buildOptions) {
  LaunchResult result;
  result.decision = choose(source, kernel, args, globalSize, localSize, buildOptions);
  // A default work-group size may shrink to what the kernel allows; a requested one may not.
  const runtime::RunTiming timing =
      impl_->runner(result.decision.device.index)
          .run(source, result.decision.kernel, args, globalSize, result.decision.wgsize,
               /*shrinkToKernel=*/localSize == 0, buildOptions);
  result.h2dMs = static_cast<double>(timing.h2dNs) / 1e6;
  result.kernelMs = static_cast<double>(timing.kernelNs) / 1e6;
  result.d2hMs = static_cast<double>(timing.d2hNs) / 1e6;
  return result;
}

}  // namespace deeptune::api
