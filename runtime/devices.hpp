// OpenCL device discovery: every device of every platform, as plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
  int addressBits = 64;
};

/// Lists the devices (an empty list when no OpenCL platform is installed). Initializes OpenCL in
/// this process: a process that calls it must not fork afterwards. Throws RuntimeError when an
/// OpenCL query fails.
std::vector<DeviceInfo> listDevices();

}  // namespace deeptune::runtime
