// Launcher: advisor decisions, then the launch on the chosen device (own or application context).
#include "api/launcher.hpp"

#include <map>
#include <utility>

#include "runtime/kernel_runner.hpp"
#include "runtime/runtime_error.hpp"

namespace deeptune::api {
namespace {

/// The context of the first application buffer among `args`, or null (host data only).
cl_context bufferContext(const std::vector<LaunchArg>& args) {
  for (const LaunchArg& arg : args) {
    if (arg.kind == LaunchArg::Kind::kBuffer) return runtime::bufferContext(arg.buffer);
  }
  return nullptr;
}

/// A 1-D range; local size 0 becomes the default one.
NDRange oneDimension(size_t globalSize, size_t localSize) {
  if (localSize == 0 && globalSize != 0) localSize = modelWorkGroupSize(NDRange({globalSize}));
  return NDRange({globalSize}, {localSize});
}

}  // namespace

struct Launcher::Impl {
  Advisor advisor;
  std::vector<runtime::DeviceInfo> devices;
  std::vector<cl_device_id> machineDevices;
  /// By (application context, or null for the launcher's own, and device), opened lazily.
  std::map<std::pair<cl_context, cl_device_id>, std::unique_ptr<runtime::KernelRunner>> runners;

  template <typename... A>
  explicit Impl(A&&... advisorArgs)
      : advisor(std::forward<A>(advisorArgs)...), devices(runtime::listDevices()) {
    if (devices.empty()) throw runtime::RuntimeError("launcher: no OpenCL device on this machine");
    for (const runtime::DeviceInfo& d : devices) machineDevices.push_back(d.id);
  }

  runtime::KernelRunner& runner(cl_context context, cl_device_id device) {
    auto& slot = runners[{context, device}];
    if (!slot) {
      if (context != nullptr) {
        slot = std::make_unique<runtime::KernelRunner>(context, device);
      } else {
        size_t index = 0;
        while (machineDevices.at(index) != device) ++index;
        slot = std::make_unique<runtime::KernelRunner>(static_cast<int>(index));
      }
    }
    return *slot;
  }

  LaunchQuery query(const std::string& source, const std::string& kernel,
                    const std::vector<LaunchArg>& args, const NDRange& range,
                    const std::string& buildOptions, cl_context context) const {
    LaunchQuery q;
    q.source = source;
    q.kernel = kernel;
    q.buildOptions = buildOptions;
    q.candidates = context != nullptr ? runtime::contextDevices(context) : machineDevices;
    q.range = range;
    q.transferBytes = LaunchArg::transferBytes(args);
    return q;
  }

  /// The candidate whose compiled kernel runs work-groups of `group` items: the decision's
  /// device first (CL_KERNEL_WORK_GROUP_SIZE may be below the device's limit).
  void fitKernelLimit(Decision& decision, const LaunchQuery& query, cl_context context,
                      const std::string& name, size_t group) {
    std::vector<cl_device_id> order = {decision.device};
    order.insert(order.end(), query.candidates.begin(), query.candidates.end());
    for (cl_device_id device : order) {
      runtime::KernelRunner& candidate = runner(context, device);
      if (candidate.kernelWorkGroupLimit(query.source, name, query.buildOptions) < group) continue;
      if (device != decision.device) {
        decision.note = "kernel '" + name + "' cannot run work-groups of " + std::to_string(group) +
                        " on " + decision.deviceName + "; running on " + candidate.device().name;
        decision.device = device;
        decision.deviceName = candidate.device().name;
      }
      return;
    }
    throw runtime::RuntimeError("kernel '" + name + "' cannot run work-groups of " +
                                std::to_string(group) + " on any candidate device");
  }

  /// Decides and runs; `shrinkable`: the 1-D default local size may halve to the kernel's limit.
  LaunchResult launch(const std::string& source, const std::string& kernel,
                      const std::vector<LaunchArg>& args, const NDRange& range,
                      const std::string& buildOptions, bool shrinkable) {
    const cl_context context = bufferContext(args);
    const LaunchQuery q = query(source, kernel, args, range, buildOptions, context);
    LaunchResult result;
    result.decision = advisor.advise(q);
    Decision& decision = result.decision;
    const std::string name = decision.kernel.empty() ? kernel : decision.kernel;
    if (!range.local.empty() && !shrinkable) {
      fitKernelLimit(decision, q, context, name, modelWorkGroupSize(range));
    }
    const runtime::RunTiming timing =
        runner(context, decision.device)
            .run(source, name, args, range.global, range.local, shrinkable, buildOptions);
    result.h2dMs = static_cast<double>(timing.h2dNs) / 1e6;
    result.kernelMs = static_cast<double>(timing.kernelNs) / 1e6;
    result.d2hMs = static_cast<double>(timing.d2hNs) / 1e6;
    return result;
  }
};

Launcher::Launcher(AdvisorOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Launcher::Launcher(std::unique_ptr<DeviceModel> model, AdvisorOptions options)
    : impl_(std::make_unique<Impl>(std::move(model), std::move(options))) {}

Launcher::~Launcher() = default;
Launcher::Launcher(Launcher&&) noexcept = default;
Launcher& Launcher::operator=(Launcher&&) noexcept = default;

const std::vector<runtime::DeviceInfo>& Launcher::devices() const { return impl_->devices; }
size_t Launcher::predictions() const { return impl_->advisor.modelCalls(); }
Advisor& Launcher::advisor() { return impl_->advisor; }

Decision Launcher::choose(const std::string& source, const std::string& kernel,
                          const std::vector<LaunchArg>& args, const NDRange& range,
                          const std::string& buildOptions) {
  return impl_->advisor.advise(
      impl_->query(source, kernel, args, range, buildOptions, bufferContext(args)));
}

LaunchResult Launcher::launch(const std::string& source, const std::string& kernel,
                              const std::vector<LaunchArg>& args, const NDRange& range,
                              const std::string& buildOptions) {
  return impl_->launch(source, kernel, args, range, buildOptions, /*shrinkable=*/false);
}

Decision Launcher::choose(const std::string& source, const std::string& kernel,
                          const std::vector<LaunchArg>& args, size_t globalSize, size_t localSize,
                          const std::string& buildOptions) {
  return choose(source, kernel, args, oneDimension(globalSize, localSize), buildOptions);
}

LaunchResult Launcher::launch(const std::string& source, const std::string& kernel,
                              const std::vector<LaunchArg>& args, size_t globalSize,
                              size_t localSize, const std::string& buildOptions) {
  return impl_->launch(source, kernel, args, oneDimension(globalSize, localSize), buildOptions,
                       /*shrinkable=*/localSize == 0);
}

}  // namespace deeptune::api
