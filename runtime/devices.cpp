// OpenCL device discovery.
#include "runtime/devices.hpp"

#include "runtime/opencl.hpp"

namespace deeptune::runtime {

namespace {

std::string typeName(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "ACCELERATOR";
  return "OTHER";
}

}  // namespace

std::vector<DeviceInfo> listDevices() {
  std::vector<DeviceInfo> infos;
  for (cl_device_id device : ocl::allDevices()) {
    DeviceInfo info;
    info.index = static_cast<int>(infos.size());
    info.name = ocl::deviceString(device, CL_DEVICE_NAME);
    info.vendor = ocl::deviceString(device, CL_DEVICE_VENDOR);
    info.type = typeName(ocl::deviceValue<cl_device_type>(device, CL_DEVICE_TYPE));
    const auto platform = ocl::deviceValue<cl_platform_id>(device, CL_DEVICE_PLATFORM);
    info.platform = ocl::platformString(platform, CL_PLATFORM_NAME);
    info.platformVersion = ocl::platformString(platform, CL_PLATFORM_VERSION);
    info.deviceVersion = ocl::deviceString(device, CL_DEVICE_VERSION);
    info.driverVersion = ocl::deviceString(device, CL_DRIVER_VERSION);
    info.computeUnits =
        static_cast<int>(ocl::deviceValue<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS));
    info.globalMemBytes = ocl::deviceValue<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
    info.maxAllocBytes = ocl::deviceValue<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    info.localMemBytes = ocl::deviceValue<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
    info.maxWorkGroupSize = ocl::deviceValue<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    info.addressBits = static_cast<int>(ocl::deviceValue<cl_uint>(device, CL_DEVICE_ADDRESS_BITS));
    infos.push_back(std::move(info));
  }
  return infos;
}

}  // namespace deeptune::runtime
