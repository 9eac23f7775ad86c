// Judging a prediction against measurements on every device: the device-mapping verdict (was the
// predicted device type the fastest?) and the coarsening verdict (the predicted factor's speedup).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/isolation.hpp"

namespace deeptune::runtime {

/// The sizes the model is told about a measured launch: the transfer of the first device that
/// got a payload and the smallest work-group size any device used.
struct LaunchSizes {
  uint64_t transfer = 0;
  size_t wgsize = 0;
};

/// The launch sizes of `result`; nullopt when no device got as far as a payload.
std::optional<LaunchSizes> launchSizesOf(const KernelResult& result);

/// "STATUS: message" of every device, joined by "; " (why a kernel did not run).
std::string statusesOf(const KernelResult& result);

/// Whether any device of `result` produced timings.
bool anyTimings(const KernelResult& result);

/// The total time (kernel + copies, median) of a measurement with timings, in ms.
double totalMs(const Measurement& measurement);

/// The judgement of a predicted device type against the measurements.
struct DeviceVerdict {
  std::string fastest;             ///< device type with the lowest time, "" if none has timings
  std::optional<bool> correct;     ///< unset when it cannot be judged
  std::optional<double> ofOracle;  ///< oracle time / predicted device's time (1 = optimal)
  std::string note;                ///< why it cannot be judged, or how much was lost
};

/// Judges `predicted` ("CPU", "GPU", ...) on `result`, measured on `devices` (same order). Each
/// device type is represented by its first device with timings.
DeviceVerdict judgeDeviceChoice(const std::vector<DeviceInfo>& devices, const KernelResult& result,
                                const std::string& predicted);

/// Judges a model trained on measured devices: `predicted` is one of `modelDevices` (device
/// names, each on `devices`); the fastest of those with timings is the oracle and `fastest` its
/// name. Only the model's devices compete: others of the machine do not.
DeviceVerdict judgeNamedDeviceChoice(const std::vector<DeviceInfo>& devices,
                                     const KernelResult& result, const std::string& predicted,
                                     const std::vector<std::string>& modelDevices);

/// One coarsening factor's result on every device, or the transform's refusal.
struct FactorRun {
  size_t factor = 1;
  std::string refusal;               ///< non-empty: not coarsened, not run
  std::vector<Measurement> devices;  ///< one per device when run
};

/// The median kernel time (ns) of a measurement that passed every check; nullopt otherwise.
std::optional<double> kernelTimeNs(const Measurement& measurement);

/// The judgement of a predicted coarsening factor on one device.
struct FactorVerdict {
  std::vector<std::optional<double>> ns;  ///< kernel time per factor run, in `runs` order
  std::optional<size_t> best;             ///< the fastest factor with a time
  std::optional<double> speedup;   ///< time(1) / time(predicted); unset when it cannot be judged
  std::optional<double> ofOracle;  ///< time(best) / time(predicted)
  std::string note;
};

/// Judges factor `predicted` on device `device` of `runs`. A predicted factor without a time is
/// judged as the largest timed factor below it (as evaluate clips an unreachable factor).
FactorVerdict judgeFactor(const std::vector<FactorRun>& runs, size_t device, size_t predicted);

}  // namespace deeptune::runtime
