// The expected calibration error and the reliability bins of a method's probabilities.
#include "evaluation/calibration_metrics.hpp"

#include <algorithm>
#include <cmath>

#include "evaluation/evaluation_error.hpp"

namespace deeptune::evaluation {

CalibrationScores calibrationScores(const std::vector<double>& confidence,
                                    const std::vector<bool>& right) {
  if (confidence.size() != right.size()) {
    throw EvaluationError("calibration: " + std::to_string(confidence.size()) +
                          " probabilities for " + std::to_string(right.size()) + " answers");
  }
  CalibrationScores scores;
  scores.rows = confidence.size();
  std::vector<double> sumConfidence(kCalibrationBins, 0.0), sumRight(kCalibrationBins, 0.0);
  std::vector<size_t> count(kCalibrationBins, 0);
  for (size_t i = 0; i < confidence.size(); ++i) {
    const double c = confidence[i];
    if (!(c >= 0 && c <= 1)) {
      throw EvaluationError("calibration: probability " + std::to_string(c) + " outside [0, 1]");
    }
    const size_t bin = std::min(static_cast<size_t>(c * kCalibrationBins),
                                static_cast<size_t>(kCalibrationBins - 1));
    sumConfidence[bin] += c;
    sumRight[bin] += right[i] ? 1.0 : 0.0;
    ++count[bin];
    scores.meanConfidence += c;
  }
  const double total = static_cast<double>(scores.rows);
  if (scores.rows > 0) scores.meanConfidence /= total;
  for (int b = 0; b < kCalibrationBins; ++b) {
    ReliabilityBin bin;
    bin.lower = static_cast<double>(b) / kCalibrationBins;
    bin.upper = static_cast<double>(b + 1) / kCalibrationBins;
    bin.rows = count[static_cast<size_t>(b)];
    if (bin.rows > 0) {
      const double n = static_cast<double>(bin.rows);
      bin.meanConfidence = sumConfidence[static_cast<size_t>(b)] / n;
      bin.accuracy = sumRight[static_cast<size_t>(b)] / n;
      scores.expectedError += n / total * std::fabs(bin.accuracy - bin.meanConfidence);
    }
    scores.bins.push_back(bin);
  }
  return scores;
}

CalibrationScores devmapCalibration(const std::vector<data::DevmapRow>& rows,
                                    const std::vector<std::string>& devices,
                                    const std::vector<double>& gpuProbability,
                                    const std::vector<size_t>& subset) {
  if (devices.size() != rows.size() || gpuProbability.size() != rows.size()) {
    throw EvaluationError("calibration: " + std::to_string(devices.size()) + " devices and " +
                          std::to_string(gpuProbability.size()) + " probabilities for " +
                          std::to_string(rows.size()) + " rows");
  }
  std::vector<double> confidence;
  std::vector<bool> right;
  for (size_t i : subset) {
    const std::string& device = devices.at(i);
    if (device != "CPU" && device != "GPU") {
      throw EvaluationError("calibration: device '" + device + "' (CPU or GPU expected)");
    }
    confidence.push_back(device == "GPU" ? gpuProbability[i] : 1 - gpuProbability[i]);
    right.push_back(device == rows[i].oracle || rows[i].tie);
  }
  return calibrationScores(confidence, right);
}

}  // namespace deeptune::evaluation
