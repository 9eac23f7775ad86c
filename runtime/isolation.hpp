// Kernel measurements in fresh worker processes: the request, the worker loop, and the parent
// that restarts workers after a hang or a crash so that every item still gets a status.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/driver.hpp"

namespace deeptune::runtime {

/// What one worker process does: every kernel x gsize x device of one source, in that order
/// (item index = (kernel * gsizes + gsize) * devices + device).
struct MeasureRequest {
  std::string source;
  std::string buildFlags;            ///< the host's -D/-I for clBuildProgram (absolute folders)
  std::vector<std::string> kernels;  ///< empty: every kernel of the program
  std::vector<size_t> gsizes;
  size_t wgsize = 0;  ///< 0: the driver's default
  int runs = 6;
  uint64_t seed = 204;
  size_t guardBytes = DriveOptions::kDefaultGuardBytes;  ///< see DriveOptions::guardBytes
  /// The factor `source` was thread-coarsened by (DriveOptions::coarsening); 1 for none.
  size_t coarsening = 1;
  /// With coarsening > 1: the un-coarsened source. Each item also runs it at factor 1 on the
  /// same device and input; outputs that differ make the item FACTOR_DISAGREES.
  std::string referenceSource;
  size_t startItem = 0;      ///< items before it are skipped (a restarted worker resumes there)
  bool listDevices = false;  ///< only report the devices
};

/// Request text for a worker (one `key<TAB>value` line per field, values escaped).
std::string encodeRequest(const MeasureRequest& request);
/// The inverse of encodeRequest(); throws RuntimeError on malformed text.
MeasureRequest decodeRequest(const std::string& text);

/// The worker loop, run in the fresh process: opens every device, builds the source on each,
/// measures every item from request.startItem on and hands each protocol record (one line,
/// without '\n') to `emit` as soon as it is ready. Kernel failures become records; only an
/// exception thrown by `emit` or a crash of the driver ends it early.
void serveRequest(const MeasureRequest& request,
                  const std::function<void(const std::string& record)>& emit);

/// Kernel names found in the text (`__kernel`/`kernel`, attributes, `void NAME(`), in order; a
/// fallback for naming rows when a source does not build.
std::vector<std::string> scanKernelNames(const std::string& source);

/// How the parent starts workers.
struct IsolationOptions {
  /// argv of a worker; the path of a request file is appended. The `deeptune` CLI uses
  /// {"/proc/self/exe", "__measure-worker"}.
  std::vector<std::string> workerCommand;
  double timeoutSeconds = 60;  ///< per build phase and per item, restarted by each record
};

/// One kernel at one size on every device (devices[i] belongs to DeviceInfo index i).
struct KernelResult {
  std::string kernel;
  size_t gsize = 0;
  std::vector<Measurement> devices;  ///< outputs are not carried back from the worker
};

/// The device list, read by a worker process (so the caller never initializes OpenCL itself).
/// Throws RuntimeError if the worker fails or times out.
std::vector<DeviceInfo> listDevicesIsolated(const IsolationOptions& options);

/// Measures request (startItem must be 0) in worker processes and calls onResult for every
/// kernel x gsize, in order, as soon as all its devices are done. A worker that passes the
/// timeout is killed with its process group and its current item becomes TIMEOUT; one that dies
/// makes it CRASH; a new worker resumes after that item. If a worker dies before naming the
/// kernels, every item is marked with scanKernelNames() (or the requested names) as kernels.
/// Throws RuntimeError only when no worker can be started.
void measureIsolated(const MeasureRequest& request, size_t deviceCount,
                     const IsolationOptions& options,
                     const std::function<void(const KernelResult&)>& onResult);

}  // namespace deeptune::runtime
