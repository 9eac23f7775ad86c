// Tests of Magni et al.'s cascade: it learns "coarsen further?" and stops at the first no.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "training/magni_cascade.hpp"

namespace {

// A kernel measured at factors 1..8 whose first PCA feature says whether its best factor lies
// further up (+1 below the best, -1 from it on); the other features are noise-like filler.
deeptune::data::CoarseningKernel syntheticKernel(int index, int best) {
  deeptune::data::CoarseningKernel kernel;
  kernel.kernel = "k" + std::to_string(index);
  kernel.bestFactor = best;
  for (int factor : {1, 2, 4, 8}) {
    std::array<double, 7> pca{};
    pca[0] = factor < best ? 1.0 : -1.0;
    for (size_t i = 1; i < pca.size(); ++i) pca[i] = std::sin(index * 7.0 + factor * 3.0 + i);
    kernel.pca[factor] = pca;
    kernel.runtimeNs[factor] = factor == best ? 10.0 : 100.0 / (1 + std::abs(factor - best));
  }
  return kernel;
}

}  // namespace

TEST_CASE("Magni cascade learns the feature that says coarsen further", "[model][coarsening]") {
  std::vector<deeptune::data::CoarseningKernel> training;
  const int bests[] = {1, 2, 4, 8};
  for (int i = 0; i < 16; ++i) training.push_back(syntheticKernel(i, bests[i % 4]));
  for (int best : bests) {
    const auto heldOut = syntheticKernel(100 + best, best);
    CHECK(deeptune::training::MagniCascade(training, 4, 7).predict(heldOut) == best);
    CHECK(deeptune::training::predictWithMagni(training, heldOut, 7) == best);
  }
}

TEST_CASE("Magni cascade is deterministic for a seed", "[model][coarsening]") {
  std::vector<deeptune::data::CoarseningKernel> training;
  for (int i = 0; i < 8; ++i) training.push_back(syntheticKernel(i, i % 2 ? 2 : 4));
  auto noisy = syntheticKernel(50, 2);
  for (auto& [factor, pca] : noisy.pca) pca[0] = 0.1;  // undecided on the telling feature
  const int first = deeptune::training::predictWithMagni(training, noisy, 11);
  CHECK(deeptune::training::predictWithMagni(training, noisy, 11) == first);
}
