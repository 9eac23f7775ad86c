// The worker side of isolated measurements as a process: serves one request file, writing its
// records to the parent through the process's standard output.
#pragma once

#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/isolation.hpp"

namespace deeptune::runtime {

/// The body of a worker process (IsolationOptions::workerCommand): asks to be killed with its
/// parent, keeps the original standard output for the records and sends everything else written
/// to stdout (kernel printf, driver chatter) to stderr, reads the request file `path` and
/// removes it, then serves it (serveRequest), one record per line. Throws RuntimeError when the
/// parent stops reading or stdout cannot be redirected; data::DataError when `path` cannot be
/// read.
void serveRequestFile(const std::string& path);

/// The devices a worker lists; throws RuntimeError "COMMAND: no OpenCL device found" if none.
std::vector<DeviceInfo> requireDevicesIsolated(const std::string& command,
                                               const IsolationOptions& isolation);

/// argv of the worker `program` beside the running executable when it is there (a regular
/// file), else `fallback`.
std::vector<std::string> workerBesideSelf(const std::string& program,
                                          const std::vector<std::string>& fallback);

}  // namespace deeptune::runtime
