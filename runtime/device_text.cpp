// How the commands describe an OpenCL device in text: on one line, or as the block of
// `deeptune devices`.
#include "runtime/device_text.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace deeptune::runtime {

std::string deviceLine(const DeviceInfo& device) {
  return device.type + " " + device.name + " (" + device.platform + ")";
}

std::string formatBytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double amount = static_cast<double>(bytes);
  int unit = 0;
  while (amount >= 1024 && unit < 4) {
    amount /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", amount, units[unit]);
  return text;
}

std::string deviceDescription(const DeviceInfo& d) {
  return "dev" + std::to_string(d.index) + "  " + d.type + "  " + d.name + "\n" +
         "      platform:      " + d.platform + " (" + d.platformVersion + ")\n" +
         "      vendor:        " + d.vendor + "\n" +
         "      compute units: " + std::to_string(d.computeUnits) + "\n" +
         "      global memory: " + formatBytes(d.globalMemBytes) + " (" +
         formatBytes(d.maxAllocBytes) + " in one buffer at most)\n" +
         "      local memory:  " + formatBytes(d.localMemBytes) + "\n" +
         "      work-group:    " + std::to_string(d.maxWorkGroupSize) + " work-items at most\n" +
         "      version:       " + d.deviceVersion + "\n" +
         "      driver:        " + d.driverVersion + "\n";
}

std::string devicesJson(const std::vector<DeviceInfo>& devices) {
  nlohmann::json out = nlohmann::json::array();
  for (const DeviceInfo& d : devices) {
    out.push_back({{"index", d.index},
                   {"name", d.name},
                   {"vendor", d.vendor},
                   {"type", d.type},
                   {"platform", d.platform},
                   {"platform_version", d.platformVersion},
                   {"device_version", d.deviceVersion},
                   {"driver_version", d.driverVersion},
                   {"compute_units", d.computeUnits},
                   {"global_mem_bytes", d.globalMemBytes},
                   {"max_alloc_bytes", d.maxAllocBytes},
                   {"local_mem_bytes", d.localMemBytes},
                   {"max_work_group_size", d.maxWorkGroupSize},
                   {"address_bits", d.addressBits}});
  }
  return out.dump(2);
}

}  // namespace deeptune::runtime
