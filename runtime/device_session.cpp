// One OpenCL device opened for work, the state the driver and the kernel runner share: its handle
// and description, a context (its own or the application's) and a profiling queue; internal.
#include "runtime/device_session.hpp"

#include "runtime/driver.hpp"

namespace deeptune::runtime {

DeviceSession::DeviceSession(int index)
    : id_(ocl::deviceAt(index)),
      info_(listDevices()[static_cast<size_t>(index)]),
      context_(id_),
      queue_(context_, id_) {}

DeviceSession::DeviceSession(cl_context context, cl_device_id device)
    : id_(device),
      info_(describeDevice(device)),
      context_(ocl::Context::adopt(context)),
      queue_(context_, id_) {}

std::optional<ocl::Program> DeviceSession::build(const std::string& source,
                                                 const std::string& extraOptions,
                                                 std::string& log) const {
  ocl::Program program(context_, source);
  const std::string options =
      extraOptions.empty() ? buildOptions() : buildOptions() + " " + extraOptions;
  if (!program.build(id_, options, log)) return std::nullopt;
  return program;
}

}  // namespace deeptune::runtime
