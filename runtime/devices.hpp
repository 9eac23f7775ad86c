// OpenCL device discovery: every device of every platform, as plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

// The OpenCL handle types, as <CL/cl.h> declares them (a repeated typedef is allowed).
typedef struct _cl_device_id* cl_device_id;
typedef struct _cl_context* cl_context;
typedef struct _cl_mem* cl_mem;

namespace deeptune::runtime {

/// One OpenCL device. `index` is its position in listDevices() (platforms in ICD order, devices in
/// platform order); measurements and CSV columns (dev0_..., dev1_...) use it.
struct DeviceInfo {
  int index = 0;
  std::string name;
  std::string vendor;
  std::string type;  ///< "CPU", "GPU", "ACCELERATOR" or "OTHER"
  std::string platform;
  std::string platformVersion;
  std::string deviceVersion;  ///< CL_DEVICE_VERSION, e.g. "OpenCL 3.0 PoCL HSTR: ..."
  std::string driverVersion;  ///< CL_DRIVER_VERSION
  int computeUnits = 0;
  uint64_t globalMemBytes = 0;
  uint64_t maxAllocBytes = 0;  ///< CL_DEVICE_MAX_MEM_ALLOC_SIZE: the largest single buffer
  uint64_t localMemBytes = 0;
  uint64_t maxWorkGroupSize = 0;
  std::vector<size_t> maxWorkItemSizes;  ///< CL_DEVICE_MAX_WORK_ITEM_SIZES, one per dimension
  int addressBits = 64;
  cl_device_id id = nullptr;  ///< the OpenCL handle (valid while the platform is loaded)
};

/// Lists the devices (an empty list when no OpenCL platform is installed). Initializes OpenCL in
/// this process: a process that calls it must not fork afterwards. Throws RuntimeError when an
/// OpenCL query fails.
std::vector<DeviceInfo> listDevices();

/// The properties of one device handle (an application's own); `index` is -1. Throws
/// RuntimeError when `device` is not a valid device.
DeviceInfo describeDevice(cl_device_id device);

/// The devices of an application's context, in its order. Throws RuntimeError.
std::vector<cl_device_id> contextDevices(cl_context context);

/// The context an application's buffer belongs to (CL_MEM_CONTEXT). Throws RuntimeError.
cl_context bufferContext(cl_mem buffer);

}  // namespace deeptune::runtime
