// Whether a method's probabilities mean what they say: the expected calibration error and the
// reliability bins of its chosen devices' probabilities.
#pragma once

#include <string>
#include <vector>

#include "data/datasets.hpp"

namespace deeptune::evaluation {

/// Equal-width bins over [0, 1] of the expected calibration error and the reliability diagram.
constexpr int kCalibrationBins = 10;

/// The answers of one bin: those whose confidence is in [lower, upper) (the last bin holds 1).
struct ReliabilityBin {
  double lower = 0, upper = 0;
  size_t rows = 0;
  double meanConfidence = 0;  ///< the mean probability of the chosen device, in [0, 1]
  double accuracy = 0;        ///< the share of them that were right, in [0, 1]
};

struct CalibrationScores {
  size_t rows = 0;
  /// Σ over bins of rows/total · |accuracy − mean confidence|: 0 when every bin's answers are
  /// right exactly as often as their probability says.
  double expectedError = 0;
  double meanConfidence = 0;
  std::vector<ReliabilityBin> bins;  ///< kCalibrationBins, empty ones included
};

/// The calibration of answers with `confidence` (the probability the method gave the device it
/// chose) and whether each was `right`. Throws EvaluationError on sizes that differ or a
/// confidence outside [0, 1].
CalibrationScores calibrationScores(const std::vector<double>& confidence,
                                    const std::vector<bool>& right);

/// The calibration of a method's devices on rows[subset]: confidence = its GPU probability for a
/// GPU answer, 1 − it for a CPU one; right = the oracle's device or a tie (as accuracy counts).
/// Throws EvaluationError when the sizes do not match `rows` or a device is not CPU/GPU.
CalibrationScores devmapCalibration(const std::vector<data::DevmapRow>& rows,
                                    const std::vector<std::string>& devices,
                                    const std::vector<double>& gpuProbability,
                                    const std::vector<size_t>& subset);

}  // namespace deeptune::evaluation
