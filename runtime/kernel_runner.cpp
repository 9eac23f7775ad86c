// KernelRunner: builds a program once per source, binds the caller's buffers and values, runs.
#include "runtime/kernel_runner.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "runtime/device_session.hpp"
#include "runtime/driver.hpp"
#include "runtime/message_summary.hpp"
#include "runtime/opencl.hpp"
#include "runtime/runtime_error.hpp"

namespace deeptune::runtime {

struct KernelRunner::Impl {
  explicit Impl(DeviceSession opened) : session(std::move(opened)) {}
  DeviceSession session;
  /// Keyed by the whole source and options (a hash alone could hand back another program).
  std::unordered_map<std::string, ocl::Program> programs;
  /// CL_KERNEL_WORK_GROUP_SIZE by source, options and kernel name: asked before each
  /// launch of the launcher, so one clCreateKernel answers it once.
  std::unordered_map<std::string, size_t> workGroupLimits;

  const ocl::Program& program(const std::string& source, const std::string& extraOptions) {
    const std::string key = source + '\0' + extraOptions;
    auto found = programs.find(key);
    if (found != programs.end()) return found->second;
    std::string log;
    std::optional<ocl::Program> built = session.build(source, extraOptions, log);
    if (!built) {
      throw RuntimeError("the kernel source does not build on " + session.info().name + ": " +
                         summarizeMessage(log));
    }
    return programs.emplace(key, std::move(*built)).first->second;
  }

  ocl::Kernel kernel(const std::string& source, const std::string& name,
                     const std::string& extraOptions) {
    const ocl::Program& built = program(source, extraOptions);
    try {
      return ocl::Kernel(built, name);
    } catch (const RuntimeError&) {  // the program's kernel names are only read to explain
      const std::vector<std::string> names = built.kernelNames();
      if (std::find(names.begin(), names.end(), name) != names.end()) throw;
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      throw RuntimeError("no kernel '" + name + "' in the source (kernels: " + list + ")");
    }
  }
};

KernelRunner::KernelRunner(int deviceIndex)
    : impl_(std::make_unique<Impl>(DeviceSession(deviceIndex))) {}

KernelRunner::KernelRunner(cl_context context, cl_device_id device)
    : impl_(std::make_unique<Impl>(DeviceSession(context, device))) {}

size_t KernelRunner::kernelWorkGroupLimit(const std::string& source, const std::string& kernel,
                                          const std::string& buildOptions) {
  const std::string key = source + '\0' + buildOptions + '\0' + kernel;
  auto found = impl_->workGroupLimits.find(key);
  if (found == impl_->workGroupLimits.end()) {
    const size_t limit =
        impl_->kernel(source, kernel, buildOptions).maxWorkGroupSize(impl_->session.id());
    found = impl_->workGroupLimits.emplace(key, limit).first;
  }
  return found->second;
}

KernelRunner::~KernelRunner() = default;

const DeviceInfo& KernelRunner::device() const { return impl_->session.info(); }

RunTiming KernelRunner::run(const std::string& source, const std::string& name,
                            const std::vector<LaunchArg>& args, const std::vector<size_t>& global,
                            std::vector<size_t> local, bool shrinkToKernel,
                            const std::string& buildOptions) {
  if (global.empty() || global.size() > 3 || (!local.empty() && local.size() != global.size())) {
    throw RuntimeError("a launch has 1 to 3 global sizes and as many local sizes, or none");
  }
  for (size_t d = 0; d < global.size(); ++d) {
    if (global[d] == 0 || (!local.empty() && (local[d] == 0 || global[d] % local[d] != 0))) {
      throw RuntimeError("global size " + std::to_string(global[d]) +
                         " must be a positive multiple of the work-group size " +
                         (local.empty() ? std::string("") : std::to_string(local[d])));
    }
  }
  ocl::Kernel kernel = impl_->kernel(source, name, buildOptions);
  if (shrinkToKernel && local.size() == 1) {  // halving a power-of-two divisor keeps it one
    const size_t allowed = kernel.maxWorkGroupSize(impl_->session.id());
    while (local[0] > 1 && local[0] > allowed) local[0] /= 2;
  }
  if (kernel.argCount() != args.size()) {
    throw RuntimeError("kernel '" + name + "' takes " + std::to_string(kernel.argCount()) +
                       " arguments, the launch gives " + std::to_string(args.size()));
  }
  const ocl::Queue& queue = impl_->session.queue();
  RunTiming timing;
  std::vector<std::pair<ocl::Buffer, const LaunchArg*>> buffers;
  buffers.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const LaunchArg& arg = args[i];
    const auto index = static_cast<cl_uint>(i);
    switch (arg.kind) {
      case LaunchArg::Kind::kInput:
      case LaunchArg::Kind::kOutput: {
        if (arg.bytes == 0 || arg.input == nullptr) {
          throw RuntimeError("argument " + std::to_string(i) + ": a buffer needs data and a size");
        }
        const cl_mem_flags flags =
            arg.kind == LaunchArg::Kind::kInput ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
        ocl::Buffer buffer(impl_->session.context(), flags, arg.bytes);
        timing.h2dNs += buffer.write(queue, arg.input, arg.bytes);
        const cl_mem mem = buffer.get();
        kernel.setArg(index, sizeof mem, &mem);
        buffers.emplace_back(std::move(buffer), &arg);
        break;
      }
      case LaunchArg::Kind::kBuffer:
        if (arg.buffer == nullptr) {
          throw RuntimeError("argument " + std::to_string(i) + ": a null cl_mem");
        }
        kernel.setArg(index, sizeof(cl_mem), &arg.buffer);
        break;
      case LaunchArg::Kind::kLocal:
        kernel.setArg(index, arg.bytes, nullptr);
        break;
      case LaunchArg::Kind::kValue:
        kernel.setArg(index, arg.value.size(), arg.value.data());
        break;
    }
  }
  ocl::Event event;
  ocl::checkError(
      clEnqueueNDRangeKernel(queue.get(), kernel.get(), static_cast<cl_uint>(global.size()),
                             nullptr, global.data(), local.empty() ? nullptr : local.data(), 0,
                             nullptr, event.out()),
      "clEnqueueNDRangeKernel");
  event.wait("kernel");
  timing.kernelNs = event.queuedToEndNs();
  for (const auto& [buffer, arg] : buffers) {
    if (arg->kind == LaunchArg::Kind::kOutput && arg->output != nullptr) {
      timing.d2hNs += buffer.read(queue, arg->output, arg->bytes);
    }
  }
  return timing;
}

}  // namespace deeptune::runtime
