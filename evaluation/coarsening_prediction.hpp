// One held-out kernel's coarsening factor as one method predicted it in one run.
#pragma once

#include <string>

namespace deeptune::evaluation {

/// One held-out kernel's prediction by one method in one run.
struct CoarseningPrediction {
  std::string device;
  std::string method;  ///< static, fixed, magni, deeptune or deeptune-tl
  int run = 0;         ///< 0 for the deterministic baselines
  std::string kernel;
  int factor = 1;      ///< the predicted factor
  double speedup = 1;  ///< over factor 1, the factor clipped to the measured ones
  double oracle = 1;   ///< the best measured factor's speedup
  int bestFactor = 1;
  /// A learned method's ensemble was unsure and the fixed factor was taken (--fallback-folds).
  bool fellBack = false;
};

}  // namespace deeptune::evaluation
