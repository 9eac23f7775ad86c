// deeptune devices: lists the OpenCL platforms and devices of this machine.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "runtime/devices.hpp"
#include "runtime/isolation.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/worker_command.hpp"

namespace deeptune::cli {
namespace {

const char* kUsage =
    "usage: deeptune devices [--json]\n"
    "\n"
    "Lists every OpenCL device of every platform with its index (the dev<i>_ columns of\n"
    "`deeptune measure`), type, compute units, memory, work-group limit, device and driver\n"
    "version. Exit code 1 when no OpenCL device is found.";

std::string bytes(uint64_t value) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double amount = static_cast<double>(value);
  int unit = 0;
  while (amount >= 1024 && unit < 4) {
    amount /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", amount, units[unit]);
  return text;
}

}  // namespace

int runDevices(const Args& args) {
  po::options_description options("options");
  options.add_options()("json", "print a JSON array of devices instead of text");
  po::variables_map vm;
  if (!parseOptions(args, kUsage, options, {}, vm)) return kExitOk;

  // Listed by a worker process: this process never initializes OpenCL (see worker_command.hpp).
  const std::vector<runtime::DeviceInfo> devices =
      runtime::listDevicesIsolated(workerIsolation(60));
  if (vm.count("json")) {
    nlohmann::json out = nlohmann::json::array();
    for (const runtime::DeviceInfo& d : devices) {
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
    std::cout << out.dump(2) << "\n";
  } else {
    for (const runtime::DeviceInfo& d : devices) {
      std::cout << "dev" << d.index << "  " << d.type << "  " << d.name << "\n"
                << "      platform:      " << d.platform << " (" << d.platformVersion << ")\n"
                << "      vendor:        " << d.vendor << "\n"
                << "      compute units: " << d.computeUnits << "\n"
                << "      global memory: " << bytes(d.globalMemBytes) << " ("
                << bytes(d.maxAllocBytes) << " in one buffer at most)\n"
                << "      local memory:  " << bytes(d.localMemBytes) << "\n"
                << "      work-group:    " << d.maxWorkGroupSize << " work-items at most\n"
                << "      version:       " << d.deviceVersion << "\n"
                << "      driver:        " << d.driverVersion << "\n";
    }
  }
  if (devices.empty()) {
    std::cerr << "deeptune: devices: no OpenCL device found (is an ICD such as pocl-opencl-icd "
                 "installed?)\n";
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace deeptune::cli
