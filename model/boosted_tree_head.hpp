// A model file's boosted-tree head: trees over the pooled LSTM state and the launch inputs,
// evaluated without XGBoost (which only fits them, in model/boosted_trees).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace deeptune::model {

/// One node of a regression tree: a split (feature >= 0: go left when x[feature] < value, a
/// missing value goes the default way) or a leaf (feature -1: value is the leaf's margin).
struct TreeNode {
  int32_t feature = -1;
  float value = 0.0f;
  int32_t left = -1, right = -1;
  bool defaultLeft = true;
};

/// Boosted trees for two classes (logistic): P(class 1) = sigmoid(baseMargin + the leaves' sum),
/// each tree's node 0 its root. What XGBoost's binary:logistic booster computes.
struct BoostedTreeHead {
  double baseMargin = 0.0;
  int features = 0;  ///< width of the rows it reads
  /// Whether its rows hold the token counts (tokenCounts) between the state and the launch
  /// inputs (headFeatures).
  bool tokenCounts = false;
  std::vector<std::vector<TreeNode>> trees;
};

/// Throws ModelError (without a path) unless `head` is a forest this program can evaluate: 1 to
/// 100000 trees of 1 to 65536 nodes, every node reachable once from its root, split features
/// below `head.features`, finite values.
void checkBoostedTreeHead(const BoostedTreeHead& head);

/// P(class 1) of a checked head for one row of head.features values.
double boostedTreeProbability(const BoostedTreeHead& head, const std::vector<float>& row);

/// A head's row for one example: the pooled LSTM state, then log2(max(1, x)) of each raw launch
/// input (transfer, wgsize), as the evaluation's heads read them.
std::vector<float> stateHeadFeatures(const std::vector<float>& state,
                                     const std::vector<double>& rawAux);

/// How often each id of a vocabulary of `vocabularySize` tokens occurs in `tokens` (the sequence
/// the network reads); ids outside the vocabulary are not counted.
std::vector<float> tokenCounts(const std::vector<int>& tokens, size_t vocabularySize);

/// The row `head` reads: the state, the token counts if head.tokenCounts, log2 of the launch
/// inputs.
std::vector<float> headFeatures(const BoostedTreeHead& head, const std::vector<float>& state,
                                const std::vector<int>& tokens, size_t vocabularySize,
                                const std::vector<double>& rawAux);

}  // namespace deeptune::model
