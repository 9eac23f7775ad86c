// OpenCL device discovery.
#include "runtime/devices.hpp"

#include <algorithm>

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

DeviceInfo describeDevice(cl_device_id device) {
  DeviceInfo info;
  info.index = -1;
  info.id = device;
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
  const auto dimensions = ocl::deviceValue<cl_uint>(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  info.maxWorkItemSizes.resize(std::min<cl_uint>(dimensions, 3));
  std::vector<size_t> sizes(dimensions);
  ocl::checkError(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                  sizes.size() * sizeof(size_t), sizes.data(), nullptr),
                  "clGetDeviceInfo");
  std::copy_n(sizes.begin(), info.maxWorkItemSizes.size(), info.maxWorkItemSizes.begin());
  return info;
}

std::vector<DeviceInfo> listDevices() {
  std::vector<DeviceInfo> infos;
  for (cl_device_id device : ocl::allDevices()) {
    infos.push_back(describeDevice(device));
    infos.back().index = static_cast<int>(infos.size()) - 1;
  }
  return infos;
}

cl_context bufferContext(cl_mem buffer) {
  cl_context context = nullptr;
  ocl::checkError(clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof context, &context, nullptr),
                  "clGetMemObjectInfo");
  return context;
}

std::vector<cl_device_id> contextDevices(cl_context context) {
  cl_uint count = 0;
  ocl::checkError(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, nullptr),
                  "clGetContextInfo");
  std::vector<cl_device_id> devices(count);
  ocl::checkError(clGetContextInfo(context, CL_CONTEXT_DEVICES, count * sizeof(cl_device_id),
                                   devices.data(), nullptr),
                  "clGetContextInfo");
  return devices;
}

}  // namespace deeptune::runtime
