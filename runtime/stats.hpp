// Timing statistics: per-run timings, medians and a distribution-free 95% interval of the median.
#pragma once

#include <cstdint>
#include <vector>

namespace deeptune::runtime {

/// One timed run, from profiling events (QUEUED -> END of each command), in nanoseconds.
struct RunTiming {
  uint64_t h2dNs = 0;     ///< all host->device copies
  uint64_t kernelNs = 0;  ///< the kernel
  uint64_t d2hNs = 0;     ///< all device->host copies
  uint64_t totalNs() const { return h2dNs + kernelNs + d2hNs; }
};

/// Medians of each part and of the total (the total's median is not the sum of the parts'),
/// and the 95% confidence interval of the total's median.
struct TimingSummary {
  int runs = 0;
  double h2dNs = 0, kernelNs = 0, d2hNs = 0, totalNs = 0;
  double ciLowNs = 0, ciHighNs = 0;
};

/// The median of `values` (the mean of the two middle values for an even count); 0 when empty.
double median(std::vector<double> values);

/// The order-statistic (binomial) confidence interval of the median: [x(k), x(n+1-k)] with the
/// largest k whose two-sided coverage is >= 95%. With fewer than 6 values no k reaches 95% and
/// [min, max] is returned (coverage 1 - 2^(1-n), e.g. 93.75% for 5 runs). Empty input: {0, 0}.
void medianInterval95(std::vector<double> values, double& low, double& high);

/// Summary of `runs` (all zero when empty).
TimingSummary summarize(const std::vector<RunTiming>& runs);

}  // namespace deeptune::runtime
