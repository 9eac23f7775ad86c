// Grewe et al. baseline: a CART decision tree (scikit-learn compatible) on four static features.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "data/datasets.hpp"
#include "data/devmap_method.hpp"

namespace deeptune::baselines {

/// How a node looks for its best split; matters only when several splits have equal gain.
enum class SplitSearch {
  kSklearn,       ///< visit features in the order scikit-learn's BestSplitter draws them
                  ///< (random_state = TreeOptions::seed); the first best split found wins
  kFeatureOrder,  ///< visit features 0, 1, 2, ...; the first best split found wins
};

/// Options of DecisionTree; the defaults are the Grewe et al. baseline of the DeepTune paper
/// (scikit-learn DecisionTreeClassifier(criterion="entropy", max_depth=5, min_samples_leaf=5,
/// random_state=204)).
struct TreeOptions {
  int maxDepth = 5;        ///< the root has depth 0; nodes at maxDepth are leaves
  int minSamplesLeaf = 5;  ///< a split must leave at least this many samples on each side
  SplitSearch search = SplitSearch::kSklearn;
  uint32_t seed = 204;  ///< scikit-learn's random_state (kSklearn only)
};

/// One node of a fitted tree. Samples with x[feature] <= threshold go to `left`.
struct TreeNode {
  int feature = -1;  ///< -1 for a leaf
  double threshold = 0;
  int left = -1, right = -1;
  int depth = 0;
  std::vector<int> classCounts;  ///< training samples per class reaching this node
  int label = 0;                 ///< argmax of classCounts (the lower class on ties)
  bool isLeaf() const { return feature < 0; }
};

/// A binary classification tree grown like scikit-learn's DecisionTreeClassifier (splitter
/// "best", entropy criterion): features are held as float (scikit-learn's float32), thresholds
/// lie midway between consecutive distinct sorted values, every split with enough samples on both
/// sides is a candidate (even one with zero gain), a node is a leaf at maxDepth, when pure or when
/// it has fewer than 2 × minSamplesLeaf samples. Deterministic. Not thread-safe while fitting.
class DecisionTree {
 public:
  explicit DecisionTree(TreeOptions options = {});

  /// Fits on samples x[i] (non-empty, all of one width >= 1) with labels y[i] in
  /// [0, classCount). Throws BaselineError on bad shapes, labels or options, or a feature value
  /// that is not finite as a float.
  void fit(const std::vector<std::vector<double>>& x, const std::vector<int>& y,
           int classCount = 2);

  /// The label of the leaf that `x` reaches. Throws BaselineError if the tree is not fitted, the
  /// width differs from fit()'s or a value is not finite as a float.
  int predict(const std::vector<double>& x) const;

  /// Nodes in depth-first order, left child first; node 0 is the root. Empty before fit().
  const std::vector<TreeNode>& nodes() const { return nodes_; }
  int depth() const;  ///< the largest depth of a node; -1 before fit()
  size_t leafCount() const;
  const TreeOptions& options() const { return options_; }

 private:
  TreeOptions options_;
  std::vector<TreeNode> nodes_;
  size_t width_ = 0;
};

/// Grewe et al.'s features of one row: F1 = transfer/(comp+mem), F2 = coalesced/mem,
/// F3 = (localmem/mem)×wgsize, F4 = comp/mem, where x/0 is defined as 0.
std::array<double, 4> greweFeatures(const data::DevmapRow& row);

/// The Grewe et al. baseline over `rows`: a DecisionTree on greweFeatures() with labels CPU = 0,
/// GPU = 1 (scikit-learn's sorted classes), fitted on the training rows of each fold. Copies the
/// features and labels it needs, so `rows` may go away afterwards. Thread-safe.
data::DevmapPredictor greweTreePredictor(const std::vector<data::DevmapRow>& rows,
                                         TreeOptions options = {});

/// A DecisionTree on `features` (one row of equal width per row of `rows`) with labels CPU = 0,
/// GPU = 1, fitted on the training rows of each fold. Thread-safe.
data::DevmapPredictor treePredictor(const std::vector<data::DevmapRow>& rows,
                                    std::vector<std::vector<double>> features,
                                    TreeOptions options = {});

}  // namespace deeptune::baselines
