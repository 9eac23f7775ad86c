// The kernel driver: build a program, read argument info, run a kernel with a generated payload,
// time it and check its outputs, on one OpenCL device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/payload.hpp"
#include "runtime/stats.hpp"
#include "runtime/status.hpp"

namespace deeptune::runtime {

/// Options every program is built with: argument info on, plus the 2016 libclc spellings the
/// paper's normalized sources contain (`__clc_fabs` ... as macros for the builtins).
std::string buildOptions();

struct BuildResult {
  bool ok = false;
  std::string log;                   ///< the compiler's build log (on success too)
  std::vector<std::string> kernels;  ///< CL_PROGRAM_KERNEL_NAMES, empty when the build failed
};

/// How to run one kernel.
struct DriveOptions {
  size_t gsize = 1024;  ///< S: elements of each buffer; global size = S rounded up to wgsize
  size_t wgsize = 0;    ///< 0: min(S, 256); always clamped to the device's and kernel's limits
  int runs = 6;         ///< timed runs after one warm-up run (at least 1)
  uint64_t seed = 204;  ///< payload seed; the second input (sensitivity check) uses stream 1
  /// Bytes of guard zone before and after the S elements of each global/constant buffer: zeroed
  /// before every run (untimed), never copied, not counted in `transfer`. Index arithmetic that
  /// overruns [0, S) (every integer scalar is S) lands there instead of in the driver's memory.
  /// A multiple of the device's base address alignment; 0 for none.
  size_t guardBytes = kDefaultGuardBytes;
  /// The factor a thread-coarsened kernel was coarsened by: the payload, S and the work-group
  /// size are the original kernel's, the launch divides the global and local sizes by it (the
  /// work-group size must be a multiple of it). 1 for an ordinary kernel.
  size_t coarsening = 1;

  static constexpr size_t kDefaultGuardBytes = size_t{16} << 20;
};

/// A buffer read back after a run on the first input, kept for comparisons across devices.
struct OutputBuffer {
  ElementType element;
  std::vector<unsigned char> bytes;
};

/// The result of one kernel on one device at one size.
struct Measurement {
  Status status = Status::kOk;       ///< worstStatus(failedChecks), or the failure that stopped it
  std::vector<Status> failedChecks;  ///< every check that failed, in precedence order
  std::string message;               ///< build log, error text or check details; "" when OK
  std::vector<KernelArg> args;
  size_t wgsize = 0;      ///< work-group size used
  size_t globalSize = 0;  ///< S rounded up to wgsize
  uint64_t transferBytes = 0;
  std::vector<RunTiming> runs;        ///< the timed runs (empty when it did not run)
  std::vector<OutputBuffer> outputs;  ///< read-back buffers of the first input

  bool hasTimings() const { return !runs.empty(); }
};

/// Relative and absolute tolerance for comparing floating outputs across devices:
/// |a - b| <= kAbsTolerance + kRelTolerance * max(|a|, |b|); NaN equals NaN; integers exactly.
constexpr double kRelTolerance = 1e-3;
constexpr double kAbsTolerance = 1e-5;

/// True when the two output sets agree within the tolerance (same buffers, same sizes). On
/// disagreement `where` (if given) names the first differing buffer and element.
bool outputsAgree(const std::vector<OutputBuffer>& a, const std::vector<OutputBuffer>& b,
                  std::string* where = nullptr);

/// Applies the cross-device check to the measurements of one kernel at one size on several
/// devices: those that reached the check (timings, no earlier failed check) are compared with the
/// first of them; on any disagreement each of them gets DEVICES_DISAGREE. Fewer than two: nothing.
void checkDevicesAgree(std::vector<Measurement*> measurements);

/// Drives kernels on one device. Owns the OpenCL context, queue and current program. Not
/// copyable; one thread at a time.
class Driver {
 public:
  /// Opens device `deviceIndex` of listDevices(). Throws RuntimeError if it does not exist or an
  /// OpenCL call fails.
  explicit Driver(int deviceIndex);
  ~Driver();
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  const DeviceInfo& device() const;

  /// Builds `source` with buildOptions() and the host's `extraFlags` (its -D/-I), replacing the
  /// current program. A compile error is not an exception: it returns ok = false and the log.
  /// Throws RuntimeError for other failures.
  BuildResult build(const std::string& source, const std::string& extraFlags = "");

  /// Argument info of a kernel of the current program. Throws RuntimeError.
  std::vector<KernelArg> kernelArgs(const std::string& kernel);

  /// Runs `kernel` of the current program: payload, one warm-up run and options.runs timed runs
  /// on the first input, one run on a second input, then the checks (NO_OUTPUT,
  /// NONDETERMINISTIC, INPUT_INSENSITIVE). Never throws for a failure of the kernel or of an
  /// OpenCL call: those give RUN_ERROR with the message. Without a built program: RUN_ERROR.
  Measurement measure(const std::string& kernel, const DriveOptions& options);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace deeptune::runtime
