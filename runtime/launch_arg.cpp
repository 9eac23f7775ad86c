// LaunchArg: the paper's transfer rule over a launch's arguments.
#include "runtime/launch_arg.hpp"

#include "runtime/opencl.hpp"

namespace deeptune::runtime {

uint64_t LaunchArg::transferBytes(const std::vector<LaunchArg>& args) {
  uint64_t total = 0;
  for (const LaunchArg& arg : args) {
    if (arg.kind == Kind::kInput) total += arg.bytes;
    if (arg.kind == Kind::kOutput) total += 2 * static_cast<uint64_t>(arg.bytes);
    if (arg.kind == Kind::kBuffer) {
      size_t bytes = 0;
      cl_mem_flags flags = 0;
      ocl::checkError(clGetMemObjectInfo(arg.buffer, CL_MEM_SIZE, sizeof bytes, &bytes, nullptr),
                      "clGetMemObjectInfo");
      ocl::checkError(clGetMemObjectInfo(arg.buffer, CL_MEM_FLAGS, sizeof flags, &flags, nullptr),
                      "clGetMemObjectInfo");
      total += (flags & CL_MEM_READ_ONLY) ? bytes : 2 * static_cast<uint64_t>(bytes);
    }
  }
  return total;
}

}  // namespace deeptune::runtime
