// XGBoost's boosted trees behind model/boosted_trees.hpp: they learn, repeat, refuse bad
// shapes, and predict the same as a model file's head (model/boosted_tree_head.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "model/boosted_trees.hpp"
#include "model/model_error.hpp"

namespace ev = deeptune::model;

TEST_CASE("boosted trees learn an interaction a single split cannot, and repeat exactly",
          "[baselines][boosted]") {
  // Label 1 where exactly one of the first two features is above 0.5 (exclusive or); the third
  // feature is noise.
  std::mt19937 random(3);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  const auto sample = [&](size_t count, std::vector<std::vector<float>>& x, std::vector<int>& y) {
    for (size_t i = 0; i < count; ++i) {
      x.push_back({uniform(random), uniform(random), uniform(random)});
      y.push_back((x.back()[0] > 0.5f) != (x.back()[1] > 0.5f) ? 1 : 0);
    }
  };
  std::vector<std::vector<float>> train, test;
  std::vector<int> labels, truth;
  sample(400, train, labels);
  sample(200, test, truth);
  const std::vector<double> gpu = ev::boostedTreeProbabilities(train, labels, test);
  REQUIRE(gpu.size() == test.size());
  size_t right = 0;
  for (size_t i = 0; i < test.size(); ++i) {
    CHECK((gpu[i] >= 0.0 && gpu[i] <= 1.0));
    right += (gpu[i] > 0.5 ? 1 : 0) == truth[i];
  }
  CHECK(right >= 180);  // 90 %; any single split is near 50 %
  CHECK(ev::boostedTreeProbabilities(train, labels, test) == gpu);  // one thread: same model
  ev::BoostedTreeOptions one;
  one.rounds = 1;
  one.maxDepth = 1;
  CHECK(ev::boostedTreeProbabilities(train, labels, test, one) != gpu);  // the options matter
}

TEST_CASE("boosted trees refuse rows and labels that do not match", "[baselines][boosted]") {
  const std::vector<std::vector<float>> train = {{0, 1}, {1, 0}};
  CHECK_THROWS_AS(ev::boostedTreeProbabilities(train, {1}, {{0, 0}}), ev::ModelError);
  CHECK_THROWS_AS(ev::boostedTreeProbabilities({}, {}, {{0, 0}}), ev::ModelError);
  CHECK_THROWS_AS(ev::boostedTreeProbabilities(train, {0, 1}, {{0, 0, 0}}), ev::ModelError);
  CHECK_THROWS_AS(ev::boostedTreeProbabilities({{0, 1}, {1}}, {0, 1}, {}), ev::ModelError);
  ev::BoostedTreeOptions none;
  none.rounds = 0;
  CHECK_THROWS_AS(ev::boostedTreeProbabilities(train, {0, 1}, {}, none), ev::ModelError);
}

TEST_CASE("boosted trees exported as a model's head predict what XGBoost predicts",
          "[baselines][boosted]") {
  std::mt19937 random(11);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<std::vector<float>> train, test;
  std::vector<int> labels;
  for (int i = 0; i < 600; ++i) {
    std::vector<float> row(6);
    for (float& value : row) value = normal(random);
    (i < 400 ? train : test).push_back(row);
    if (i < 400) labels.push_back(row[0] * row[1] + 0.3f * row[2] > 0.0f ? 1 : 0);
  }
  const std::vector<double> xgboost = ev::boostedTreeProbabilities(train, labels, test);
  const deeptune::model::BoostedTreeHead head = ev::fitBoostedTreeHead(train, labels);
  CHECK(head.features == 6);
  CHECK(head.trees.size() == 50);
  size_t agree = 0, confident = 0;
  for (size_t i = 0; i < test.size(); ++i) {
    const double ours = deeptune::model::boostedTreeProbability(head, test[i]);
    CHECK(ours == Approx(xgboost[i]).margin(1e-6));
    agree += (ours > 0.5) == (xgboost[i] > 0.5);
    confident += std::abs(xgboost[i] - 0.5) > 0.1;
  }
  CHECK(agree == test.size());
  CHECK(confident > 100);  // the trees learned something: most rows are far from 0.5
  // The head checks what it reads.
  CHECK_THROWS_WITH(deeptune::model::boostedTreeProbability(head, {1.0f}),
                    Catch::Contains("a row of 1 features, the head reads 6"));
}

TEST_CASE("a boosted-tree head that cannot be evaluated is refused", "[baselines][boosted]") {
  using deeptune::model::BoostedTreeHead;
  using deeptune::model::checkBoostedTreeHead;
  BoostedTreeHead head;
  head.features = 2;
  head.trees = {{{0, 0.5f, 1, 2, true}, {-1, -1.0f}, {-1, 1.0f}}};
  CHECK_NOTHROW(checkBoostedTreeHead(head));
  CHECK(deeptune::model::boostedTreeProbability(head, {0.0f, 9.0f}) ==
        Approx(1 / (1 + std::exp(1.0))));
  CHECK(deeptune::model::boostedTreeProbability(head, {std::nanf(""), 0.0f}) ==
        Approx(1 / (1 + std::exp(1.0))));  // missing: the default way (left)
  const auto refused = [](BoostedTreeHead bad, const std::string& why) {
    INFO(why);
    CHECK_THROWS_WITH(checkBoostedTreeHead(bad), Catch::Contains(why));
  };
  BoostedTreeHead cycle = head;
  cycle.trees[0][2] = {1, 0.0f, 0, 1, true};  // back to the root
  refused(cycle, "reached twice");
  BoostedTreeHead outside = head;
  outside.trees[0][0].right = 7;
  refused(outside, "node 7 missing");
  BoostedTreeHead wide = head;
  wide.trees[0][0].feature = 2;
  refused(wide, "split on feature 2 of 2");
  BoostedTreeHead notFinite = head;
  notFinite.trees[0][1].value = std::numeric_limits<float>::infinity();
  refused(notFinite, "non-finite");
  BoostedTreeHead empty = head;
  empty.trees.clear();
  refused(empty, "0 trees");
}
