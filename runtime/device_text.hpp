// How the commands describe an OpenCL device in text: on one line, or as the block of
// `deeptune devices`.
#pragma once

#include <cstdint>
#include <string>

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

}  // namespace deeptune::runtime
