// Helpers the benchmarks share: elapsed time, percentiles, the paper's distinct kernels.
#pragma once

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "data/datasets.hpp"

namespace deeptune::bench {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// The value at fraction `p` (0 to 1) of the sorted values; `values` must not be empty.
inline double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(p * static_cast<double>(values.size() - 1))];
}

/// The distinct sources of DATA_DIR/cgo17-amd.csv (247 for the paper's data), in sorted order.
inline std::vector<std::string> distinctPaperKernels(const std::string& dataDir) {
  std::set<std::string> distinct;
  for (const auto& row : data::readDevmapCsv(dataDir + "/cgo17-amd.csv")) distinct.insert(row.src);
  return {distinct.begin(), distinct.end()};
}

}  // namespace deeptune::bench
