// How the commands describe an OpenCL device in text: on one line, as the block of
// `deeptune devices`, or as its JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/devices.hpp"

namespace deeptune::runtime {

/// "TYPE NAME (PLATFORM)".
std::string deviceLine(const DeviceInfo& device);

/// A byte count in binary units: "512 B", "1.5 KiB", ... up to TiB (one decimal above bytes).
std::string formatBytes(uint64_t bytes);

/// The block `deeptune devices` prints for a device: "dev<i>  TYPE  NAME" and its platform,
/// vendor, compute units, memories, work-group limit and versions, one per line, each line
/// ending with '\n'.
std::string deviceDescription(const DeviceInfo& device);

/// `deeptune devices --json`: a JSON array of the devices, every field of DeviceInfo under its
/// snake_case name, indented by 2.
std::string devicesJson(const std::vector<DeviceInfo>& devices);

}  // namespace deeptune::runtime
