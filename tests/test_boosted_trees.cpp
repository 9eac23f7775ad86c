// XGBoost's boosted trees behind evaluation/boosted_trees.hpp: they learn, repeat, refuse bad
// shapes.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "evaluation/boosted_trees.hpp"
#include "evaluation/evaluation_error.hpp"

namespace ev = deeptune::evaluation;

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
  CHECK_THROWS_AS(ev::boostedTreeProbabilities(train, {1}, {{0, 0}}), ev::EvaluationError);
  CHECK_THROWS_AS(ev::boostedTreeProbabilities({}, {}, {{0, 0}}), ev::EvaluationError);
  CHECK_THROWS_AS(ev::boostedTreeProbabilities(train, {0, 1}, {{0, 0, 0}}), ev::EvaluationError);
  CHECK_THROWS_AS(ev::boostedTreeProbabilities({{0, 1}, {1}}, {0, 1}, {}), ev::EvaluationError);
  ev::BoostedTreeOptions none;
  none.rounds = 0;
  CHECK_THROWS_AS(ev::boostedTreeProbabilities(train, {0, 1}, {}, none), ev::EvaluationError);
}
