// Grewe et al. baseline: CART tree growth that mirrors scikit-learn's BestSplitter, and the
// features.
#include "baselines/grewe_tree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>

#include "baselines/baseline_error.hpp"

namespace deeptune::baselines {

namespace {

// scikit-learn's constants: values closer than this count as equal; EPSILON guards impurity tests.
constexpr float kFeatureThreshold = 1e-7f;
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

/// scikit-learn's log: log base 2 computed as ln(x)/ln(2) (kept so equal gains stay equal).
double log2Sk(double x) { return std::log(x) / std::log(2.0); }

/// Entropy of class counts summing to n, in scikit-learn's order of operations.
double entropy(const std::vector<double>& counts, double n) {
  double result = 0.0;
  for (double count : counts) {
    if (count > 0.0) {
      const double p = count / n;
      result -= p * log2Sk(p);
    }
  }
  return result;
}

float toFloat(double value, const char* what) {
  const float f = static_cast<float>(value);
  if (!std::isfinite(f)) {
    throw BaselineError(std::string("decision tree: ") + what +
                        " has a feature value that is not " +
                        "finite as a float: " + std::to_string(value));
  }
  return f;
}

struct Split {
  size_t pos = 0;  ///< samples [start, pos) go left
  int feature = -1;
  double threshold = 0.0;
  double impurityLeft = 0.0, impurityRight = 0.0, improvement = 0.0;
};

/// Grows one tree; the state (sample order, feature permutation, random state) is shared across
/// nodes exactly as in scikit-learn's DepthFirstTreeBuilder + BestSplitter, so that equal-gain
/// ties break the same way.
class Builder {
 public:
  Builder(const TreeOptions& options, std::vector<std::vector<float>> columns,
          const std::vector<int>& y, int classCount, std::vector<TreeNode>& nodes)
      : options_(options),
        columns_(std::move(columns)),
        y_(y),
        classCount_(classCount),
        nodes_(nodes),
        samples_(y.size()),
        values_(y.size()),
        features_(columns_.size()),
        constants_(columns_.size()) {
    for (size_t i = 0; i < samples_.size(); ++i) samples_[i] = i;
    for (size_t f = 0; f < features_.size(); ++f) features_[f] = f;
    state_ = initialRandomState(options.seed);
  }

  void growRoot() {
    const std::vector<double> counts = classCounts(0, samples_.size());
    build(0, samples_.size(), 0, entropy(counts, static_cast<double>(samples_.size())), 0);
  }

 private:
  /// scikit-learn draws its tree's rand_r state as numpy RandomState(seed).randint(0, 2^31 - 1):
  /// MT19937 seeded with init_genrand(seed), 31-bit masked rejection sampling.
  static uint32_t initialRandomState(uint32_t seed) {
    std::mt19937 mt(seed);
    uint32_t value;
    do {
      value = static_cast<uint32_t>(mt()) & 0x7FFFFFFFu;
    } while (value > 0x7FFFFFFEu);
    return value;
  }

  /// scikit-learn's our_rand_r (xorshift32) and rand_int(low, high) in [low, high).
  size_t randInt(size_t low, size_t high) {
    if (state_ == 0) state_ = 1;
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    const uint32_t r = state_ % (0x7FFFFFFFu + 1u);
    return low + r % (high - low);
  }

  std::vector<double> classCounts(size_t start, size_t end) const {
    std::vector<double> counts(static_cast<size_t>(classCount_), 0.0);
    for (size_t p = start; p < end; ++p) counts[static_cast<size_t>(y_[samples_[p]])] += 1.0;
    return counts;
  }

  int build(size_t start, size_t end, int depth, double impurity, size_t constantCount) {
    const int id = static_cast<int>(nodes_.size());
    nodes_.emplace_back();
    const std::vector<double> counts = classCounts(start, end);
    {
      TreeNode& node = nodes_.back();
      node.depth = depth;
      for (double c : counts) node.classCounts.push_back(static_cast<int>(c));
      node.label =
          static_cast<int>(std::max_element(counts.begin(), counts.end()) - counts.begin());
    }
    const size_t n = end - start;
    const size_t minLeaf = static_cast<size_t>(options_.minSamplesLeaf);
    bool leaf = depth >= options_.maxDepth || n < 2 || n < 2 * minLeaf || impurity <= kEpsilon;
    Split split;
    if (!leaf) {
      split = findSplit(start, end, impurity, counts, constantCount);
      leaf = split.pos >= end || split.improvement + kEpsilon < 0.0;
    }
    if (leaf) return id;
    nodes_[static_cast<size_t>(id)].feature = split.feature;
    nodes_[static_cast<size_t>(id)].threshold = split.threshold;
    const int left = build(start, split.pos, depth + 1, split.impurityLeft, constantCount);
    const int right = build(split.pos, end, depth + 1, split.impurityRight, constantCount);
    nodes_[static_cast<size_t>(id)].left = left;
    nodes_[static_cast<size_t>(id)].right = right;
    return id;
  }

  /// Sorts samples_[start, end) by feature f and fills values_ accordingly.
  void sortBy(size_t f, size_t start, size_t end) {
    const std::vector<float>& column = columns_[f];
    std::sort(samples_.begin() + static_cast<std::ptrdiff_t>(start),
              samples_.begin() + static_cast<std::ptrdiff_t>(end),
              [&](size_t a, size_t b) { return column[a] < column[b]; });
    for (size_t p = start; p < end; ++p) values_[p] = column[samples_[p]];
  }

  /// Scans the thresholds of the feature sorted into values_; keeps the first best one.
  void scan(int feature, size_t start, size_t end, const std::vector<double>& total, Split& best,
            double& bestProxy) const {
    const size_t minLeaf = static_cast<size_t>(options_.minSamplesLeaf);
    std::vector<double> left(total.size(), 0.0), right(total.size());
    size_t counted = start;  // samples [start, counted) are in `left`
    for (size_t p = start; p < end;) {
      while (p + 1 < end && values_[p + 1] <= values_[p] + kFeatureThreshold) ++p;
      const size_t previous = p;
      ++p;
      if (p >= end) continue;
      if (p - start < minLeaf || end - p < minLeaf) continue;
      for (; counted < p; ++counted) left[static_cast<size_t>(y_[samples_[counted]])] += 1.0;
      for (size_t c = 0; c < total.size(); ++c) right[c] = total[c] - left[c];
      const double nLeft = static_cast<double>(p - start), nRight = static_cast<double>(end - p);
      const double proxy = -nRight * entropy(right, nRight) - nLeft * entropy(left, nLeft);
      if (proxy > bestProxy) {
        bestProxy = proxy;
        best.pos = p;
        best.feature = feature;
        best.threshold = values_[previous] / 2.0 + values_[p] / 2.0;  // halves: no overflow
        if (best.threshold == values_[p] || std::isinf(best.threshold)) {
          best.threshold = values_[previous];
        }
      }
    }
  }

  Split findSplit(size_t start, size_t end, double impurity, const std::vector<double>& total,
                  size_t& constantCount) {
    Split best;
    best.pos = end;
    double bestProxy = -std::numeric_limits<double>::infinity();
    const size_t featureCount = features_.size();
    if (options_.search == SplitSearch::kFeatureOrder) {
      for (size_t f = 0; f < featureCount; ++f) {
        sortBy(f, start, end);
        if (values_[end - 1] <= values_[start] + kFeatureThreshold) continue;  // constant
        scan(static_cast<int>(f), start, end, total, best, bestProxy);
      }
    } else {
      // scikit-learn's Fisher-Yates draw over features_, skipping known and found constants
      // (sklearn/tree/_splitter.pyx, node_split_best); max_features = all features.
      size_t fI = featureCount, visited = 0, found = 0, drawn = 0;
      const size_t known = constantCount;
      size_t totalConstants = known;
      while (fI > totalConstants && (visited < featureCount || visited <= found + drawn)) {
        ++visited;
        size_t fJ = randInt(drawn, fI - found);
        if (fJ < known) {
          std::swap(features_[drawn], features_[fJ]);
          ++drawn;
          continue;
        }
        fJ += found;
        const size_t feature = features_[fJ];
        sortBy(feature, start, end);
        if (values_[end - 1] <= values_[start] + kFeatureThreshold) {
          std::swap(features_[fJ], features_[totalConstants]);
          ++found;
          ++totalConstants;
          continue;
        }
        --fI;
        std::swap(features_[fI], features_[fJ]);
        scan(static_cast<int>(feature), start, end, total, best, bestProxy);
      }
      // Known constants keep their order for siblings and children; record the new ones.
      std::copy(constants_.begin(), constants_.begin() + static_cast<std::ptrdiff_t>(known),
                features_.begin());
      std::copy(features_.begin() + static_cast<std::ptrdiff_t>(known),
                features_.begin() + static_cast<std::ptrdiff_t>(known + found),
                constants_.begin() + static_cast<std::ptrdiff_t>(known));
      constantCount = totalConstants;
    }
    if (best.pos < end) finishSplit(start, end, impurity, best);
    return best;
  }

  /// Moves the left samples to the front and computes the children's impurity and the gain.
  void finishSplit(size_t start, size_t end, double impurity, Split& split) {
    const std::vector<float>& column = columns_[static_cast<size_t>(split.feature)];
    const auto middle = std::stable_partition(
        samples_.begin() + static_cast<std::ptrdiff_t>(start),
        samples_.begin() + static_cast<std::ptrdiff_t>(end),
        [&](size_t s) { return static_cast<double>(column[s]) <= split.threshold; });
    if (static_cast<size_t>(middle - samples_.begin()) != split.pos) {
      throw BaselineError(
          "decision tree: internal error, split threshold does not separate samples");
    }
    const double nNode = static_cast<double>(end - start);
    const double nLeft = static_cast<double>(split.pos - start);
    const double nRight = static_cast<double>(end - split.pos);
    split.impurityLeft = entropy(classCounts(start, split.pos), nLeft);
    split.impurityRight = entropy(classCounts(split.pos, end), nRight);
    split.improvement =
        (nNode / static_cast<double>(samples_.size())) *
        (impurity - nRight / nNode * split.impurityRight - nLeft / nNode * split.impurityLeft);
  }

  const TreeOptions& options_;
  const std::vector<std::vector<float>> columns_;  // columns_[feature][sample]
  const std::vector<int>& y_;
  const int classCount_;
  std::vector<TreeNode>& nodes_;
  std::vector<size_t> samples_;
  std::vector<float> values_;
  std::vector<size_t> features_, constants_;
  uint32_t state_ = 1;
};

/// x / y with x / 0 defined as 0: scikit-learn rejects the inf/NaN that numpy would give, and no
/// row of the paper data has mem = 0 or comp + mem = 0, so the choice never changes its figures.
double ratio(double x, double y) { return y == 0.0 ? 0.0 : x / y; }

}  // namespace

DecisionTree::DecisionTree(TreeOptions options) : options_(options) {}

void DecisionTree::fit(const std::vector<std::vector<double>>& x, const std::vector<int>& y,
                       int classCount) {
  if (options_.maxDepth < 0 || options_.minSamplesLeaf < 1) {
    throw BaselineError("decision tree: maxDepth must be >= 0 and minSamplesLeaf >= 1");
  }
  if (x.empty() || x.size() != y.size()) {
    throw BaselineError("decision tree: " + std::to_string(x.size()) + " samples and " +
                        std::to_string(y.size()) + " labels (need the same non-zero count)");
  }
  if (classCount < 1) throw BaselineError("decision tree: classCount must be >= 1");
  const size_t width = x.front().size();
  if (width == 0) throw BaselineError("decision tree: samples have no features");
  std::vector<std::vector<float>> columns(width, std::vector<float>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].size() != width) {
      throw BaselineError("decision tree: sample " + std::to_string(i) + " has " +
                          std::to_string(x[i].size()) + " features, sample 0 has " +
                          std::to_string(width));
    }
    if (y[i] < 0 || y[i] >= classCount) {
      throw BaselineError("decision tree: label " + std::to_string(y[i]) + " of sample " +
                          std::to_string(i) + " is outside [0, " + std::to_string(classCount) +
                          ")");
    }
    for (size_t f = 0; f < width; ++f) columns[f][i] = toFloat(x[i][f], "a training sample");
  }
  nodes_.clear();
  width_ = width;
  Builder(options_, std::move(columns), y, classCount, nodes_).growRoot();
}

int DecisionTree::predict(const std::vector<double>& x) const {
  if (nodes_.empty()) throw BaselineError("decision tree: predict() before fit()");
  if (x.size() != width_) {
    throw BaselineError("decision tree: sample has " + std::to_string(x.size()) +
                        " features, the tree was fitted on " + std::to_string(width_));
  }
  size_t id = 0;
  while (!nodes_[id].isLeaf()) {
    const TreeNode& node = nodes_[id];
    const double value = toFloat(x[static_cast<size_t>(node.feature)], "a sample to predict");
    id = static_cast<size_t>(value <= node.threshold ? node.left : node.right);
  }
  return nodes_[id].label;
}

int DecisionTree::depth() const {
  int result = -1;
  for (const TreeNode& node : nodes_) result = std::max(result, node.depth);
  return result;
}

size_t DecisionTree::leafCount() const {
  return static_cast<size_t>(
      std::count_if(nodes_.begin(), nodes_.end(), [](const TreeNode& n) { return n.isLeaf(); }));
}

std::array<double, 4> greweFeatures(const data::DevmapRow& row) {
  const double comp = row.comp, mem = row.mem;
  return {ratio(row.transfer, comp + mem), ratio(row.coalesced, mem),
          ratio(row.localmem, mem) * row.wgsize, ratio(comp, mem)};
}

data::DevmapPredictor greweTreePredictor(const std::vector<data::DevmapRow>& rows,
                                         TreeOptions options) {
  std::vector<std::vector<double>> features;
  for (const data::DevmapRow& row : rows) {
    const std::array<double, 4> f = greweFeatures(row);
    features.emplace_back(f.begin(), f.end());
  }
  return treePredictor(rows, std::move(features), options);
}

data::DevmapPredictor treePredictor(const std::vector<data::DevmapRow>& rows,
                                    std::vector<std::vector<double>> features,
                                    TreeOptions options) {
  if (features.size() != rows.size()) throw BaselineError("tree: one feature row per data row");
  struct Table {
    std::vector<std::vector<double>> x;
    std::vector<int> y;
  };
  auto table = std::make_shared<Table>();
  table->x = std::move(features);
  for (const data::DevmapRow& row : rows) table->y.push_back(row.oracle == "GPU" ? 1 : 0);
  std::shared_ptr<const Table> shared = table;
  return [shared, options](const std::vector<size_t>& trainRows,
                           const std::vector<size_t>& testRows, int) {
    std::vector<std::vector<double>> x;
    std::vector<int> y;
    for (size_t row : trainRows) {
      if (row >= shared->x.size()) throw BaselineError("tree: training row out of range");
      x.push_back(shared->x[row]);
      y.push_back(shared->y[row]);
    }
    DecisionTree tree(options);
    tree.fit(x, y, 2);
    std::vector<std::string> predicted;
    predicted.reserve(testRows.size());
    for (size_t row : testRows) {
      if (row >= shared->x.size()) throw BaselineError("tree: test row out of range");
      predicted.push_back(tree.predict(shared->x[row]) == 1 ? "GPU" : "CPU");
    }
    return predicted;
  };
}

}  // namespace deeptune::baselines
