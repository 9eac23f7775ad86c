// deeptune devices: lists the OpenCL platforms and devices of this machine.
#include <iostream>
#include <string>

#include "runtime/device_text.hpp"
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
    std::cout << runtime::devicesJson(devices) << "\n";
  } else {
    for (const runtime::DeviceInfo& d : devices) std::cout << runtime::deviceDescription(d);
  }
  if (devices.empty()) {
    std::cerr << "deeptune: devices: no OpenCL device found (is an ICD such as pocl-opencl-icd "
                 "installed?)\n";
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace deeptune::cli
