// The `fixed` thread-coarsening baseline: the factor with the best mean speedup in training.
#include "baselines/fixed_factor.hpp"

namespace deeptune::baselines {

int bestFixedFactor(const std::vector<data::CoarseningKernel>& training) {
  int best = 1;
  double bestMean = -1;
  for (int factor : data::coarseningFactors()) {
    double sum = 0;
    for (const data::CoarseningKernel& kernel : training) sum += kernel.speedup(factor);
    const double mean = training.empty() ? 0 : sum / static_cast<double>(training.size());
    if (mean > bestMean) {
      bestMean = mean;
      best = factor;
    }
  }
  return best;
}

}  // namespace deeptune::baselines
