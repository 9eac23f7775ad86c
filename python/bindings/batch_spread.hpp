// A batch of launches spread over a few predictors, each kernel's launches on one (its cache).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace deeptune::python {

/// How many predictors a batch with `distinct` distinct kernels is spread over: 1 for a few
/// kernels (a new predictor costs a model load and a rewriter worker), else up to the CPUs this
/// process may use, at most `most`.
size_t batchSlots(size_t distinct, size_t most);

/// The slot of every launch: launches of one (source, kernel) share a slot; distinct kernels are
/// dealt out in order of first appearance. `distinct` receives how many there are.
std::vector<size_t> slotsByKernel(const std::vector<std::string>& texts,
                                  const std::vector<std::string>& kernels, size_t slots,
                                  size_t* distinct = nullptr);

/// Runs `run(slot, launch)` for every launch, each slot's launches in order on one thread (slot 0
/// on the caller's). After all threads have joined, rethrows the error of the lowest launch that
/// failed (a slot stops at its first failure), so the error does not depend on the spread.
void runSpread(const std::vector<size_t>& slotOfLaunch, size_t slots,
               const std::function<void(size_t slot, size_t launch)>& run);

}  // namespace deeptune::python
