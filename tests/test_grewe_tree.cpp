// Tests of the CART tree of the Grewe et al. baseline: hand-made splits, limits, paper accuracy.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "baselines/baseline_error.hpp"
#include "baselines/grewe_tree.hpp"
#include "data/datasets.hpp"
#include "evaluation/cross_validation.hpp"
#include "evaluation/evaluation_error.hpp"
#include "evaluation/protocol.hpp"
#include "tests/test_paths.hpp"

namespace ev = deeptune::evaluation;
namespace bl = deeptune::baselines;
namespace dd = deeptune::data;

namespace {

/// Accuracy (%) and correct count of a predictor under the canonical folds of one platform.
struct Measured {
  size_t correct = 0;
  double percent = 0;
};

Measured canonicalAccuracy(const std::string& platform, const bl::TreeOptions& options) {
  const std::string dir = deeptune::test::paperDataDir();
  const auto rows = dd::readDevmapCsv(dir + "/cgo17-" + platform + ".csv");
  const auto folds = ev::foldOfRows(rows, dd::readFoldsCsv(dir + "/folds-" + platform + ".csv"));
  const auto predicted =
      ev::crossValidate(rows.size(), folds, bl::greweTreePredictor(rows, options)).devices;
  Measured m;
  for (size_t i = 0; i < rows.size(); ++i) m.correct += predicted[i] == rows[i].oracle ? 1 : 0;
  m.percent = 100.0 * static_cast<double>(m.correct) / static_cast<double>(rows.size());
  return m;
}

}  // namespace

TEST_CASE("tree: one feature, one threshold midway between distinct values", "[grewe]") {
  std::vector<std::vector<double>> x;
  std::vector<int> y;
  for (int v = 1; v <= 20; ++v) {
    x.push_back({static_cast<double>(v)});
    y.push_back(v > 8 ? 1 : 0);
  }
  bl::DecisionTree tree;
  tree.fit(x, y);
  const auto& nodes = tree.nodes();
  REQUIRE(nodes.size() == 3);
  CHECK(nodes[0].feature == 0);
  CHECK(nodes[0].threshold == 8.5);
  CHECK(nodes[0].classCounts == std::vector<int>{8, 12});
  CHECK(nodes[1].isLeaf());
  CHECK(nodes[1].classCounts == std::vector<int>{8, 0});
  CHECK(nodes[1].label == 0);
  CHECK(nodes[2].classCounts == std::vector<int>{0, 12});
  CHECK(nodes[2].label == 1);
  CHECK(tree.depth() == 1);
  CHECK(tree.leafCount() == 2);
  CHECK(tree.predict({8.5}) == 0);  // x <= threshold goes left
  CHECK(tree.predict({8.51}) == 1);
}

TEST_CASE("tree: two features, the better one first, then the other", "[grewe]") {
  // Quadrants of (f0, f1): low/low 5 samples, low/high 10, high/low 5 (all class 0) and
  // high/high 5 (class 1). Splitting f0 leaves 15 pure + {5, 5}: cheaper than f1's 10 + {10, 5}.
  std::vector<std::vector<double>> x;
  std::vector<int> y;
  auto add = [&](double f0, double f1, int count, int label) {
    for (int i = 0; i < count; ++i) {
      x.push_back({f0 + i, f1 + i});
      y.push_back(label);
    }
  };
  add(0, 0, 5, 0);
  add(0, 10, 10, 0);  // f0 0..9: still below the high block, which starts at 10
  add(10, 0, 5, 0);
  add(10, 10, 5, 1);
  // f0's sorted distinct values are 0..9 then 10..14: threshold (9 + 10) / 2.
  bl::DecisionTree tree;
  tree.fit(x, y);
  const auto& n = tree.nodes();
  REQUIRE(n.size() == 5);
  CHECK(n[0].feature == 0);
  CHECK(n[0].threshold == 9.5);
  CHECK((n[1].isLeaf() && n[1].classCounts == std::vector<int>{15, 0}));
  CHECK(n[2].feature == 1);
  CHECK(n[2].classCounts == std::vector<int>{5, 5});
  CHECK(n[2].threshold == 7.0);  // f1 of the high block: 0..4 (class 0) and 10..14 (class 1)
  CHECK((n[3].isLeaf() && n[3].label == 0 && n[3].depth == 2));
  CHECK((n[4].isLeaf() && n[4].label == 1 && n[4].depth == 2));
  CHECK(tree.predict({12, 12}) == 1);
  CHECK(tree.predict({12, 2}) == 0);
  CHECK(tree.predict({2, 12}) == 0);
}

TEST_CASE("tree: min samples per leaf", "[grewe]") {
  // Class 1 only at x = 1, 2: isolating them would leave a 2-sample leaf, so the best allowed
  // split keeps 5 samples on the left ({3, 2}) and a pure right side; neither side can split.
  std::vector<std::vector<double>> x;
  std::vector<int> y;
  for (int v = 1; v <= 12; ++v) {
    x.push_back({static_cast<double>(v)});
    y.push_back(v <= 2 ? 1 : 0);
  }
  bl::DecisionTree tree;
  tree.fit(x, y);
  const auto& n = tree.nodes();
  REQUIRE(n.size() == 3);
  CHECK(n[0].threshold == 5.5);
  CHECK(n[1].classCounts == std::vector<int>{3, 2});
  CHECK(n[1].label == 0);
  CHECK(n[2].classCounts == std::vector<int>{7, 0});

  bl::TreeOptions loose;
  loose.minSamplesLeaf = 1;
  bl::DecisionTree fine(loose);
  fine.fit(x, y);
  REQUIRE(fine.nodes().size() == 3);
  CHECK(fine.nodes()[0].threshold == 2.5);
}

TEST_CASE("tree: depth limit, leaf sizes and determinism on a noisy set", "[grewe]") {
  std::vector<std::vector<double>> x;
  std::vector<int> y;
  for (int i = 0; i < 400; ++i) {
    const double a = (i * 37) % 101, b = (i * 53) % 89, c = i % 7;
    x.push_back({a, b, c, a});  // feature 3 repeats feature 0: equal-gain ties
    y.push_back(((i * 31) % 17 < 8) != (a > 50) ? 1 : 0);
  }
  for (int maxDepth : {0, 1, 2, 5}) {
    bl::TreeOptions options;
    options.maxDepth = maxDepth;
    bl::DecisionTree tree(options);
    tree.fit(x, y);
    CHECK(tree.depth() <= maxDepth);
    CHECK(tree.leafCount() <= (size_t{1} << maxDepth));
    for (const bl::TreeNode& node : tree.nodes()) {
      CHECK(node.classCounts[0] + node.classCounts[1] >= 5);
      if (!node.isLeaf()) CHECK(node.classCounts[0] + node.classCounts[1] >= 10);
    }
    bl::DecisionTree again(options);
    again.fit(x, y);
    REQUIRE(again.nodes().size() == tree.nodes().size());
    for (size_t i = 0; i < tree.nodes().size(); ++i) {
      CHECK(again.nodes()[i].feature == tree.nodes()[i].feature);
      CHECK(again.nodes()[i].threshold == tree.nodes()[i].threshold);
    }
  }
  bl::TreeOptions ordered;
  ordered.search = bl::SplitSearch::kFeatureOrder;
  bl::DecisionTree tree(ordered);
  tree.fit(x, y);
  for (const bl::TreeNode& node : tree.nodes()) CHECK(node.feature != 3);  // 0 is seen first
}

TEST_CASE("tree: bad input", "[grewe]") {
  bl::DecisionTree tree;
  CHECK_THROWS_AS(tree.predict({1.0}), bl::BaselineError);
  CHECK_THROWS_AS(tree.fit({}, {}), bl::BaselineError);
  CHECK_THROWS_AS(tree.fit({{1.0}, {2.0}}, {0}), bl::BaselineError);
  CHECK_THROWS_AS(tree.fit({{1.0}, {2.0, 3.0}}, {0, 1}), bl::BaselineError);
  CHECK_THROWS_AS(tree.fit({{1.0}, {2.0}}, {0, 2}), bl::BaselineError);
  CHECK_THROWS_AS(tree.fit({{1.0}, {1e300}}, {0, 1}), bl::BaselineError);  // inf as a float
  tree.fit({{1.0}, {2.0}}, {0, 1});
  CHECK(tree.leafCount() == 1);       // 2 samples < 2 × min leaf
  CHECK(tree.nodes()[0].label == 0);  // a 1:1 tie goes to the lower class, like scikit-learn
  CHECK_THROWS_AS(tree.predict({1.0, 2.0}), bl::BaselineError);
}

TEST_CASE("grewe features: the four ratios, x/0 = 0", "[grewe]") {
  dd::DevmapRow row{};
  row.comp = 30;
  row.mem = 10;
  row.localmem = 5;
  row.coalesced = 4;
  row.transfer = 800;
  row.wgsize = 64;
  const auto f = bl::greweFeatures(row);
  CHECK(f[0] == 20.0);      // 800 / (30 + 10)
  CHECK(f[1] == 0.4);       // 4 / 10
  CHECK(f[2] == 0.5 * 64);  // (5 / 10) × 64
  CHECK(f[3] == 3.0);       // 30 / 10
  row.mem = 0;
  row.comp = 0;
  const auto zero = bl::greweFeatures(row);
  CHECK(zero == std::array<double, 4>{0, 0, 0, 0});
}

TEST_CASE("grewe: paper data with the canonical folds reaches the anchors", "[grewe][paper]") {
  // SPEC anchors (scikit-learn, random_state 204): 70.3% (AMD), 74.6% (NVIDIA).
  const Measured amd = canonicalAccuracy("amd", {});
  const Measured nvidia = canonicalAccuracy("nvidia", {});
  CHECK(amd.percent == Approx(70.3).margin(2.0));
  CHECK(nvidia.percent == Approx(74.6).margin(2.0));
  // Measured here: scikit-learn's feature draw reproduces both anchors exactly.
  CHECK(amd.correct == 478);     // 70.29%
  CHECK(nvidia.correct == 507);  // 74.56%

  bl::TreeOptions ordered;
  ordered.search = bl::SplitSearch::kFeatureOrder;
  CHECK(canonicalAccuracy("amd", ordered).percent == Approx(70.3).margin(2.0));
  CHECK(canonicalAccuracy("nvidia", ordered).percent == Approx(74.6).margin(2.0));
}
