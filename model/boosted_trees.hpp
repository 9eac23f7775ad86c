// Gradient-boosted trees (Debian's XGBoost) for a two-class problem, behind plain value types.
#pragma once

#include <cstdint>
#include <vector>

#include "model/boosted_tree_head.hpp"

namespace deeptune::model {

/// XGBoost settings; the defaults are the library's own for depth and learning rate, with 50
/// rounds (chosen before any test fold was seen, not tuned).
struct BoostedTreeOptions {
  int rounds = 50;
  int maxDepth = 6;
  double learningRate = 0.3;
  double columnSample = 1.0;  ///< share of the features each tree may split on (0, 1]
  uint64_t seed = 0;
};

/// Fits boosted trees (binary logistic objective, one thread: the same model on every run) on
/// `train` rows of equal width labelled 0/1 by `labels`, and returns the probability of label 1
/// for each row of `test`. Throws ModelError on bad shapes or an XGBoost failure (its
/// message).
std::vector<double> boostedTreeProbabilities(const std::vector<std::vector<float>>& train,
                                             const std::vector<int>& labels,
                                             const std::vector<std::vector<float>>& test,
                                             const BoostedTreeOptions& options = {});

/// The same fit as boostedTreeProbabilities, returned as trees that predict without XGBoost
/// (boostedTreeProbability gives XGBoost's probabilities, to float rounding).
BoostedTreeHead fitBoostedTreeHead(const std::vector<std::vector<float>>& train,
                                   const std::vector<int>& labels,
                                   const BoostedTreeOptions& options = {});

}  // namespace deeptune::model
