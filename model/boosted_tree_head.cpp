// The boosted-tree head: checked once when read, then walked per row without allocation.
#include "model/boosted_tree_head.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "model/model_error.hpp"

namespace deeptune::model {

void checkBoostedTreeHead(const BoostedTreeHead& head) {
  if (head.features < 1 || head.features > (1 << 20)) {
    throw ModelError("boosted-tree head over " + std::to_string(head.features) + " features");
  }
  if (head.trees.empty() || head.trees.size() > 100000 || !std::isfinite(head.baseMargin)) {
    throw ModelError("boosted-tree head of " + std::to_string(head.trees.size()) +
                     " trees (1 to 100000) or a non-finite base margin");
  }
  for (size_t t = 0; t < head.trees.size(); ++t) {
    const std::vector<TreeNode>& tree = head.trees[t];
    const std::string where = "boosted-tree head, tree " + std::to_string(t) + ": ";
    if (tree.empty() || tree.size() > 65536) throw ModelError(where + "1 to 65536 nodes expected");
    std::vector<bool> reached(tree.size(), false);
    std::vector<int32_t> pending = {0};
    while (!pending.empty()) {
      const int32_t id = pending.back();
      pending.pop_back();
      if (id < 0 || static_cast<size_t>(id) >= tree.size() || reached[id]) {
        throw ModelError(where + "node " + std::to_string(id) + " missing or reached twice");
      }
      reached[id] = true;
      const TreeNode& node = tree[id];
      if (!std::isfinite(node.value)) throw ModelError(where + "a non-finite value");
      if (node.feature == -1) continue;
      if (node.feature < 0 || node.feature >= head.features) {
        throw ModelError(where + "split on feature " + std::to_string(node.feature) + " of " +
                         std::to_string(head.features));
      }
      pending.push_back(node.left);
      pending.push_back(node.right);
    }
  }
}

double boostedTreeProbability(const BoostedTreeHead& head, const std::vector<float>& row) {
  if (row.size() != static_cast<size_t>(head.features)) {
    throw ModelError("boosted-tree head: a row of " + std::to_string(row.size()) +
                     " features, the head reads " + std::to_string(head.features));
  }
  float sum = 0.0f;  // XGBoost sums the leaves in float
  for (const std::vector<TreeNode>& tree : head.trees) {
    const TreeNode* node = &tree[0];
    while (node->feature >= 0) {
      const float x = row[node->feature];
      const bool left = std::isnan(x) ? node->defaultLeft : x < node->value;
      node = &tree[left ? node->left : node->right];
    }
    sum += node->value;
  }
  const double margin = head.baseMargin + sum;
  return 1.0 / (1.0 + std::exp(-margin));
}

std::vector<float> stateHeadFeatures(const std::vector<float>& state,
                                     const std::vector<double>& rawAux) {
  std::vector<float> row(state.begin(), state.end());
  for (double value : rawAux) row.push_back(static_cast<float>(std::log2(std::max(1.0, value))));
  return row;
}

std::vector<float> tokenCounts(const std::vector<int>& tokens, size_t vocabularySize) {
  std::vector<float> counts(vocabularySize, 0.0f);
  for (int id : tokens) {
    if (id >= 0 && static_cast<size_t>(id) < vocabularySize) counts[static_cast<size_t>(id)] += 1;
  }
  return counts;
}

std::vector<float> headFeatures(const BoostedTreeHead& head, const std::vector<float>& state,
                                const std::vector<int>& tokens, size_t vocabularySize,
                                const std::vector<double>& rawAux) {
  if (!head.tokenCounts) return stateHeadFeatures(state, rawAux);
  std::vector<float> inner = state;
  const std::vector<float> counts = tokenCounts(tokens, vocabularySize);
  inner.insert(inner.end(), counts.begin(), counts.end());
  return stateHeadFeatures(inner, rawAux);
}

}  // namespace deeptune::model
