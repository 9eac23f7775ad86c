// The CSV that `deeptune measure` writes: paper-compatible columns, then per-device columns.
#pragma once

#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/isolation.hpp"

namespace deeptune::runtime {

/// Header: benchmark, dataset, gsize, wgsize, transfer, oracle, runtime_cpu, runtime_gpu, then
/// for each device i: dev<i>_name, dev<i>_type, dev<i>_status, dev<i>_checks, dev<i>_wgsize,
/// dev<i>_kernel_ns, dev<i>_h2d_ns, dev<i>_d2h_ns, dev<i>_total_ns, dev<i>_ci_low_ns,
/// dev<i>_ci_high_ns, dev<i>_runs, dev<i>_message; then src.
std::vector<std::string> measureCsvHeader(const std::vector<DeviceInfo>& devices);

/// One row for `result` reported as `benchmark` (src may be "", as for the paper's kernels).
/// Times: ns medians (rounded) per device; runtime_cpu / runtime_gpu in ms (median of kernel +
/// copies) of the first CPU / GPU device with timings, "" when there is none. oracle: "CPU" or
/// "GPU" when both are present, else the name of the fastest device with timings ("" if none).
std::vector<std::string> measureCsvRow(const std::string& benchmark, const KernelResult& result,
                                       const std::vector<DeviceInfo>& devices,
                                       const std::string& src);

}  // namespace deeptune::runtime
