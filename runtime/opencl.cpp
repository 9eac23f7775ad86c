// RAII wrappers over the OpenCL C API: queries, context, queue, program, kernel, buffer, event.
#include "runtime/opencl.hpp"

#include <algorithm>

#include "data/text_split.hpp"
#include "runtime/runtime_error.hpp"

namespace deeptune::runtime::ocl {

namespace {

constexpr cl_int kPlatformNotFoundKhr = -1001;

/// A string-valued OpenCL query: `query(size, buffer, &sizeReturned)` is called once for the size
/// and once for the text; trailing NULs are removed. Throws RuntimeError naming `call`.
template <typename Query>
std::string queryString(const Query& query, const char* call) {
  size_t size = 0;
  checkError(query(0, nullptr, &size), call);
  std::string text(size, '\0');
  checkError(query(size, text.data(), nullptr), call);
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

}  // namespace

void checkError(cl_int status, const char* call) {
  if (status != CL_SUCCESS) throw RuntimeError(call, status);
}

cl_device_id deviceAt(int index) {
  const std::vector<cl_device_id> ids = allDevices();
  if (index < 0 || static_cast<size_t>(index) >= ids.size()) {
    throw RuntimeError("no OpenCL device " + std::to_string(index) + " (this machine has " +
                       std::to_string(ids.size()) + ")");
  }
  return ids[index];
}

std::vector<cl_device_id> allDevices() {
  cl_uint platformCount = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &platformCount);
  if (status == kPlatformNotFoundKhr || (status == CL_SUCCESS && platformCount == 0)) return {};
  checkError(status, "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(platformCount);
  checkError(clGetPlatformIDs(platformCount, platforms.data(), nullptr), "clGetPlatformIDs");
  std::vector<cl_device_id> devices;
  for (cl_platform_id platform : platforms) {
    cl_uint count = 0;
    const cl_int found = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
    if (found == CL_DEVICE_NOT_FOUND || count == 0) continue;
    checkError(found, "clGetDeviceIDs");
    std::vector<cl_device_id> some(count);
    checkError(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, some.data(), nullptr),
               "clGetDeviceIDs");
    devices.insert(devices.end(), some.begin(), some.end());
  }
  return devices;
}

std::string deviceString(cl_device_id device, cl_device_info what) {
  return queryString(
      [&](size_t size, void* data, size_t* returned) {
        return clGetDeviceInfo(device, what, size, data, returned);
      },
      "clGetDeviceInfo");
}

std::string platformString(cl_platform_id platform, cl_platform_info what) {
  return queryString(
      [&](size_t size, void* data, size_t* returned) {
        return clGetPlatformInfo(platform, what, size, data, returned);
      },
      "clGetPlatformInfo");
}

Context::Context(cl_device_id device) {
  cl_int status = CL_SUCCESS;
  handle_ = Handle<cl_context, clReleaseContext>(
      clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status));
  checkError(status, "clCreateContext");
}

Context Context::adopt(cl_context context) {
  checkError(clRetainContext(context), "clRetainContext");
  Context shared;
  shared.handle_ = Handle<cl_context, clReleaseContext>(context);
  return shared;
}

Queue::Queue(const Context& context, cl_device_id device) {
  cl_int status = CL_SUCCESS;
  handle_ = Handle<cl_command_queue, clReleaseCommandQueue>(
      clCreateCommandQueue(context.get(), device, CL_QUEUE_PROFILING_ENABLE, &status));
  checkError(status, "clCreateCommandQueue");
}

void Queue::finish() const { checkError(clFinish(handle_.get()), "clFinish"); }

cl_event* Event::out() {
  if (raw_ != nullptr) clReleaseEvent(raw_);
  raw_ = nullptr;
  return &raw_;
}

Event::~Event() {
  if (raw_ != nullptr) clReleaseEvent(raw_);
}

void Event::wait(const char* what) const {
  checkError(clWaitForEvents(1, &raw_), what);
  cl_int execution = CL_COMPLETE;
  checkError(clGetEventInfo(raw_, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof execution, &execution,
                            nullptr),
             "clGetEventInfo");
  if (execution < 0) throw RuntimeError(what, execution, "command failed");
}

uint64_t Event::queuedToEndNs() const {
  cl_ulong queued = 0;
  cl_ulong end = 0;
  checkError(
      clGetEventProfilingInfo(raw_, CL_PROFILING_COMMAND_QUEUED, sizeof queued, &queued, nullptr),
      "clGetEventProfilingInfo");
  checkError(clGetEventProfilingInfo(raw_, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
             "clGetEventProfilingInfo");
  return end > queued ? end - queued : 0;
}

Program::Program(const Context& context, const std::string& source) {
  const char* text = source.c_str();
  const size_t length = source.size();
  cl_int status = CL_SUCCESS;
  handle_ = Handle<cl_program, clReleaseProgram>(
      clCreateProgramWithSource(context.get(), 1, &text, &length, &status));
  checkError(status, "clCreateProgramWithSource");
}

bool Program::build(cl_device_id device, const std::string& options, std::string& log) {
  const cl_int status =
      clBuildProgram(handle_.get(), 1, &device, options.c_str(), nullptr, nullptr);
  try {  // a log that cannot be read is an empty log, not an error
    log = queryString(
        [&](size_t size, void* data, size_t* returned) {
          return clGetProgramBuildInfo(handle_.get(), device, CL_PROGRAM_BUILD_LOG, size, data,
                                       returned);
        },
        "clGetProgramBuildInfo");
  } catch (const RuntimeError&) {
    log.clear();
  }
  if (status == CL_BUILD_PROGRAM_FAILURE) return false;
  checkError(status, "clBuildProgram");
  return true;
}

std::vector<std::string> Program::kernelNames() const {
  const std::string text = queryString(
      [&](size_t size, void* data, size_t* returned) {
        return clGetProgramInfo(handle_.get(), CL_PROGRAM_KERNEL_NAMES, size, data, returned);
      },
      "clGetProgramInfo");
  return data::splitText(text, ';', data::EmptyPieces::kDrop);
}

Kernel::Kernel(const Program& program, const std::string& name) {
  cl_int status = CL_SUCCESS;
  handle_ =
      Handle<cl_kernel, clReleaseKernel>(clCreateKernel(program.get(), name.c_str(), &status));
  checkError(status, "clCreateKernel");
}

cl_uint Kernel::argCount() const {
  cl_uint count = 0;
  checkError(clGetKernelInfo(handle_.get(), CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr),
             "clGetKernelInfo");
  return count;
}

RawArgInfo Kernel::argInfo(cl_uint index) const {
  RawArgInfo info;
  auto text = [&](cl_kernel_arg_info what) {
    return queryString(
        [&](size_t size, void* data, size_t* returned) {
          return clGetKernelArgInfo(handle_.get(), index, what, size, data, returned);
        },
        "clGetKernelArgInfo");
  };
  checkError(clGetKernelArgInfo(handle_.get(), index, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                sizeof info.address, &info.address, nullptr),
             "clGetKernelArgInfo");
  checkError(clGetKernelArgInfo(handle_.get(), index, CL_KERNEL_ARG_TYPE_QUALIFIER,
                                sizeof info.typeQualifier, &info.typeQualifier, nullptr),
             "clGetKernelArgInfo");
  info.typeName = text(CL_KERNEL_ARG_TYPE_NAME);
  info.name = text(CL_KERNEL_ARG_NAME);
  return info;
}

size_t Kernel::maxWorkGroupSize(cl_device_id device) const {
  size_t size = 0;
  checkError(clGetKernelWorkGroupInfo(handle_.get(), device, CL_KERNEL_WORK_GROUP_SIZE, sizeof size,
                                      &size, nullptr),
             "clGetKernelWorkGroupInfo");
  return size;
}

void Kernel::setArg(cl_uint index, size_t size, const void* value) {
  checkError(clSetKernelArg(handle_.get(), index, size, value), "clSetKernelArg");
}

Buffer::Buffer(const Context& context, cl_mem_flags flags, size_t bytes) : bytes_(bytes) {
  cl_int status = CL_SUCCESS;
  handle_ = Handle<cl_mem, clReleaseMemObject>(
      clCreateBuffer(context.get(), flags, bytes, nullptr, &status));
  checkError(status, "clCreateBuffer");
}

Buffer::Buffer(const Buffer& parent, cl_mem_flags flags, size_t origin, size_t bytes)
    : bytes_(bytes) {
  cl_buffer_region region{origin, bytes};
  cl_int status = CL_SUCCESS;
  handle_ = Handle<cl_mem, clReleaseMemObject>(
      clCreateSubBuffer(parent.get(), flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &status));
  checkError(status, "clCreateSubBuffer");
}

uint64_t Buffer::write(const Queue& queue, const void* data, size_t size) const {
  Event event;
  checkError(clEnqueueWriteBuffer(queue.get(), handle_.get(), CL_TRUE, 0, size, data, 0, nullptr,
                                  event.out()),
             "clEnqueueWriteBuffer");
  event.wait("clEnqueueWriteBuffer");
  return event.queuedToEndNs();
}

uint64_t Buffer::read(const Queue& queue, void* data, size_t size) const {
  Event event;
  checkError(clEnqueueReadBuffer(queue.get(), handle_.get(), CL_TRUE, 0, size, data, 0, nullptr,
                                 event.out()),
             "clEnqueueReadBuffer");
  event.wait("clEnqueueReadBuffer");
  return event.queuedToEndNs();
}

void Buffer::zero(const Queue& queue, size_t offset, size_t size) const {
  if (size == 0) return;
  const cl_uchar pattern = 0;
  Event event;
  checkError(clEnqueueFillBuffer(queue.get(), handle_.get(), &pattern, sizeof pattern, offset, size,
                                 0, nullptr, event.out()),
             "clEnqueueFillBuffer");
  event.wait("clEnqueueFillBuffer");
}

}  // namespace deeptune::runtime::ocl
