// The CSV `measure --task coarsening` writes: the columns of pact-2014-runtimes.csv that train
// and evaluate read (kernel, cf, runtime_<device>), the statuses, and how its rows are named.
#pragma once

#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/verdict.hpp"

namespace deeptune::runtime {

/// `runtime_<label>` names: the device name with every character outside [A-Za-z0-9.-] as '_'
/// (a second device of the same name gets its index appended; a nameless one is "device").
std::vector<std::string> coarseningDeviceLabels(const std::vector<DeviceInfo>& devices);

/// kernel, cf, runtime_<label>..., status_<label>..., message, src.
std::vector<std::string> coarseningCsvHeader(const std::vector<std::string>& labels);

/// One row of the coarsening CSV and the device statuses in it.
struct CoarseningRow {
  std::vector<std::string> fields;
  std::vector<std::string> statuses;  ///< per device; "REFUSED" when the transform refused
};

/// The row of `run` for kernel `name` measured on `deviceCount` devices: the median kernel time
/// in ns where the variant passed every check (else empty), each device's status, the refusal or
/// the first failed device's message (summarized), and `src`.
CoarseningRow coarseningCsvRow(const std::string& name, const FactorRun& run, size_t deviceCount,
                               const std::string& src);

/// A kernel of a file to label.
struct FileKernel {
  std::string file;
  std::string kernel;
};

/// The `kernel` column of each: its name, or FILE-STEM:NAME when several files define that name.
std::vector<std::string> uniqueKernelNames(const std::vector<FileKernel>& kernels);

}  // namespace deeptune::runtime
