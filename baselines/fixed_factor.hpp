// The `fixed` thread-coarsening baseline: one factor for every kernel, the best on the training
// kernels.
#pragma once

#include <vector>

#include "data/coarsening_kernels.hpp"

namespace deeptune::baselines {

/// The one factor with the best mean speedup over `training` (ties: the smaller factor).
int bestFixedFactor(const std::vector<data::CoarseningKernel>& training);

}  // namespace deeptune::baselines
