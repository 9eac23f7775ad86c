// Test-only LD_PRELOAD library: the Nth clEnqueueNDRangeKernel of a process fails (simulated
// fault). DEEPTUNE_FAULT_ENQUEUE=N picks the call (1 = the first); DEEPTUNE_FAULT_ERROR the error
// code returned (default CL_OUT_OF_RESOURCES). Every other call goes to the real OpenCL library.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>

#include <atomic>
#include <cstdlib>

namespace {

long environmentNumber(const char* name, long fallback) {
  const char* text = std::getenv(name);
  return text != nullptr && *text != '\0' ? std::strtol(text, nullptr, 10) : fallback;
}

}  // namespace

extern "C" CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dimensions,
                       const size_t* offset, const size_t* global, const size_t* local,
                       cl_uint waitCount, const cl_event* waitList, cl_event* event) {
  using Real =
      cl_int(CL_API_CALL*)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*,
                           const size_t*, cl_uint, const cl_event*, cl_event*);
  static const Real real = reinterpret_cast<Real>(::dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel"));
  static std::atomic<long> calls{0};
  if (++calls == environmentNumber("DEEPTUNE_FAULT_ENQUEUE", 0)) {
    return static_cast<cl_int>(environmentNumber("DEEPTUNE_FAULT_ERROR", CL_OUT_OF_RESOURCES));
  }
  if (real == nullptr) return CL_INVALID_OPERATION;
  return real(queue, kernel, dimensions, offset, global, local, waitCount, waitList, event);
}
