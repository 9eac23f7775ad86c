// The device-mapping method interface: fit on a fold's training rows, predict its test rows
// (declared below the methods and the evaluation that runs them).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace deeptune::data {

/// A method's predictions of some rows: "CPU" or "GPU" each, and for a method with a probability
/// its probability that the GPU is the faster device (one per device; empty when it has none).
struct DevmapPredictions {
  std::vector<std::string> devices;
  std::vector<double> gpuProbability;

  DevmapPredictions() = default;
  /// Devices without a probability (what the baselines answer).
  DevmapPredictions(std::vector<std::string> devices)  // NOLINT(google-explicit-constructor)
      : devices(std::move(devices)) {}
  DevmapPredictions(std::vector<std::string> devices, std::vector<double> gpuProbability)
      : devices(std::move(devices)), gpuProbability(std::move(gpuProbability)) {}
};

/// Trains on `trainRows` and predicts `testRows` (indices into the caller's rows, ascending) for
/// fold `fold`. Returns one device per test row, in order, with their probabilities where the
/// method has them. Must be safe to call concurrently from several threads (each call its own
/// fold).
using DevmapPredictor = std::function<DevmapPredictions(
    const std::vector<size_t>& trainRows, const std::vector<size_t>& testRows, int fold)>;

}  // namespace deeptune::data
