// RAII wrappers over the OpenCL C API (one class per object, CLBlast style); internal to runtime/.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace deeptune::runtime::ocl {

/// Throws RuntimeError naming `call` and the error's name unless status is CL_SUCCESS.
void checkError(cl_int status, const char* call);

/// Unique owner of one OpenCL object; the destructor releases it and never throws.
template <typename T, cl_int(CL_API_CALL* Release)(T)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T raw) : raw_(raw) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : raw_(std::exchange(other.raw_, nullptr)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      raw_ = std::exchange(other.raw_, nullptr);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  T get() const { return raw_; }
  explicit operator bool() const { return raw_ != nullptr; }
  void reset() {
    if (raw_ != nullptr) Release(raw_);  // status ignored: a destructor must not throw
    raw_ = nullptr;
  }

 private:
  T raw_ = nullptr;
};

/// Every device of every platform, platforms in ICD order, devices in platform order. No
/// platform at all gives an empty list; other failures throw RuntimeError.
std::vector<cl_device_id> allDevices();

/// Device `index` of allDevices(); throws RuntimeError naming how many there are.
cl_device_id deviceAt(int index);

/// String-valued device / platform queries (trailing NULs removed). Throw RuntimeError.
std::string deviceString(cl_device_id device, cl_device_info what);
std::string platformString(cl_platform_id platform, cl_platform_info what);

/// A fixed-size device query, e.g. deviceValue<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS).
template <typename T>
T deviceValue(cl_device_id device, cl_device_info what) {
  T value{};
  checkError(clGetDeviceInfo(device, what, sizeof value, &value, nullptr), "clGetDeviceInfo");
  return value;
}

/// A context on one device.
class Context {
 public:
  explicit Context(cl_device_id device);
  /// Shares an application's context: retains it (released by the destructor).
  static Context adopt(cl_context context);
  cl_context get() const { return handle_.get(); }

 private:
  Context() = default;
  Handle<cl_context, clReleaseContext> handle_;
};

/// An in-order command queue with profiling enabled.
class Queue {
 public:
  Queue(const Context& context, cl_device_id device);
  cl_command_queue get() const { return handle_.get(); }
  void finish() const;

 private:
  Handle<cl_command_queue, clReleaseCommandQueue> handle_;
};

/// A completed command's profiling event.
class Event {
 public:
  Event() = default;
  /// Where an enqueue call stores the event (the previous one, if any, is released).
  cl_event* out();
  /// Waits for the command; throws RuntimeError if it failed (negative execution status).
  void wait(const char* what) const;
  /// Nanoseconds from CL_PROFILING_COMMAND_QUEUED to CL_PROFILING_COMMAND_END.
  uint64_t queuedToEndNs() const;
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

 private:
  cl_event raw_ = nullptr;
};

/// A program built from source for one device.
class Program {
 public:
  Program(const Context& context, const std::string& source);
  /// Builds for `device`; returns true on success. `log` receives the build log either way.
  bool build(cl_device_id device, const std::string& options, std::string& log);
  /// CL_PROGRAM_KERNEL_NAMES split at ';' (after a successful build).
  std::vector<std::string> kernelNames() const;
  cl_program get() const { return handle_.get(); }

 private:
  Handle<cl_program, clReleaseProgram> handle_;
};

/// One argument as clGetKernelArgInfo reports it.
struct RawArgInfo {
  cl_kernel_arg_address_qualifier address = 0;
  cl_kernel_arg_type_qualifier typeQualifier = 0;
  std::string typeName;
  std::string name;
};

/// A kernel of a built program.
class Kernel {
 public:
  Kernel(const Program& program, const std::string& name);
  cl_kernel get() const { return handle_.get(); }
  cl_uint argCount() const;
  /// Needs a program built with -cl-kernel-arg-info; throws RuntimeError otherwise.
  RawArgInfo argInfo(cl_uint index) const;
  /// CL_KERNEL_WORK_GROUP_SIZE for `device`.
  size_t maxWorkGroupSize(cl_device_id device) const;
  void setArg(cl_uint index, size_t size, const void* value);

 private:
  Handle<cl_kernel, clReleaseKernel> handle_;
};

/// A device buffer of a fixed capacity.
class Buffer {
 public:
  Buffer(const Context& context, cl_mem_flags flags, size_t bytes);
  /// A sub-buffer of `parent`: bytes [origin, origin + bytes) (origin aligned to the device's
  /// CL_DEVICE_MEM_BASE_ADDR_ALIGN).
  Buffer(const Buffer& parent, cl_mem_flags flags, size_t origin, size_t bytes);
  cl_mem get() const { return handle_.get(); }
  size_t bytes() const { return bytes_; }
  /// Blocking host->device copy of the first `size` bytes; returns QUEUED->END in ns.
  uint64_t write(const Queue& queue, const void* data, size_t size) const;
  /// Blocking device->host copy of the first `size` bytes; returns QUEUED->END in ns.
  uint64_t read(const Queue& queue, void* data, size_t size) const;
  /// Blocking fill of [offset, offset + size) with zero bytes.
  void zero(const Queue& queue, size_t offset, size_t size) const;

 private:
  Handle<cl_mem, clReleaseMemObject> handle_;
  size_t bytes_ = 0;
};

}  // namespace deeptune::runtime::ocl
