// Timing statistics: medians and the order-statistic interval of the median.
#include "runtime/stats.hpp"

#include <algorithm>
#include <cmath>

namespace deeptune::runtime {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

void medianInterval95(std::vector<double> values, double& low, double& high) {
  low = high = 0;
  if (values.empty()) return;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  // Coverage of [x(k), x(n+1-k)] is 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2): keep the largest
  // k with 2 P(B <= k-1) <= 0.05 (k = 1 when even that fails). Binomial terms in log space.
  size_t k = 1;
  double cdf = 0;
  for (size_t j = 0; j < n / 2; ++j) {
    const double logChoose =
        std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(static_cast<double>(n - j) + 1.0);
    cdf += std::exp(logChoose - static_cast<double>(n) * std::log(2.0));
    if (2 * cdf > 0.05) break;
    k = j + 1;
  }
  low = values[k - 1];
  high = values[n - k];
}

TimingSummary summarize(const std::vector<RunTiming>& runs) {
  TimingSummary summary;
  summary.runs = static_cast<int>(runs.size());
  if (runs.empty()) return summary;
  std::vector<double> h2d, kernel, d2h, total;
  for (const RunTiming& run : runs) {
    h2d.push_back(static_cast<double>(run.h2dNs));
    kernel.push_back(static_cast<double>(run.kernelNs));
    d2h.push_back(static_cast<double>(run.d2hNs));
    total.push_back(static_cast<double>(run.totalNs()));
  }
  summary.h2dNs = median(h2d);
  summary.kernelNs = median(kernel);
  summary.d2hNs = median(d2h);
  summary.totalNs = median(total);
  medianInterval95(total, summary.ciLowNs, summary.ciHighNs);
  return summary;
}

}  // namespace deeptune::runtime
