// The device-mapping method interface: fit on a fold's training rows, predict its test rows
// (declared below the methods and the evaluation that runs them).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace deeptune::data {

/// Trains on `trainRows` and predicts `testRows` (indices into the caller's rows, ascending) for
/// fold `fold`. Returns "CPU" or "GPU" per test row, in order. Must be safe to call concurrently
/// from several threads (each call its own fold).
using DevmapPredictor = std::function<std::vector<std::string>(
    const std::vector<size_t>& trainRows, const std::vector<size_t>& testRows, int fold)>;

}  // namespace deeptune::data
