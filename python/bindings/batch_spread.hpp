// A batch of launches spread over a few predictors, each kernel's launches on one (its cache).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace deeptune::python {

/// Which predictor ("slot") decides each launch of a batch.
struct BatchSpread {
  std::vector<size_t> slotOfLaunch;
  size_t slots = 1;
};

/// Launches of one (source, kernel) share a slot; the distinct kernels are dealt out in order of
/// first appearance over 1 slot for a few kernels (a new predictor costs a model load and a
/// rewriter worker), else one per 16 kernels, up to the CPUs this process may use and `most`.
BatchSpread spreadByKernel(const std::vector<std::string>& texts,
                           const std::vector<std::string>& kernels, size_t most);

/// Runs `run(slot, launch)` for every launch, each slot's launches in order on one thread (slot 0
/// on the caller's). After all threads have joined, rethrows the error of the lowest launch that
/// failed (a slot stops at its first failure), so the error does not depend on the spread.
void runSpread(const BatchSpread& spread,
               const std::function<void(size_t slot, size_t launch)>& run);

}  // namespace deeptune::python
