// Calibrating a predictor's GPU probability: Platt scaling, temperature or isotonic regression,
// fitted on held-out probabilities and carried in the model file.
#pragma once

#include <string>
#include <vector>

namespace deeptune::model {

/// A monotone map of a probability p (of label 1, the GPU) to a calibrated one q.
struct ProbabilityCalibration {
  /// "none" (q = p), "platt" (q = sigmoid(scale · logit p + shift)), "temperature" (the same with
  /// shift 0: scale = 1 / T) or "isotonic" (q piecewise linear through (knots[i], values[i]),
  /// values[0] below the first knot and the last value above the last; non-decreasing).
  std::string method = "none";
  double scale = 1, shift = 0;
  std::vector<double> knots, values;

  /// q for p in [0, 1] (p is clamped to it first; logit p is taken of p kept within 1e-6 of the
  /// ends, so that a probability that rounded to 0 or 1 maps to a finite value).
  double apply(double p) const;
  bool operator==(const ProbabilityCalibration& other) const;
};

/// The methods fitCalibration knows: none, platt, temperature, isotonic.
const std::vector<std::string>& calibrationMethods();

/// Fits `method` to held-out `probabilities` of label 1 and their `labels` (0 or 1), each
/// method minimizing the log loss of Platt's smoothed targets ((positives + 1) / (positives + 2)
/// for a 1, 1 / (negatives + 2) for a 0), so that a fit never answers 0 or 1 with certainty:
/// platt and temperature by Newton's method, isotonic by pool-adjacent-violators over the
/// probabilities' order (each pooled block's mean target from its lowest to its highest
/// probability, linear between blocks: knots at both ends of each block). Throws ModelError for an
/// unknown method, sizes that differ, no probability, a label other than 0/1 or a probability
/// outside [0, 1].
ProbabilityCalibration fitCalibration(const std::string& method,
                                      const std::vector<double>& probabilities,
                                      const std::vector<int>& labels);

/// Throws ModelError (starting with "calibration: ") unless `calibration` is one a file may hold:
/// a known method, finite parameters, a positive scale, 1 to 4096 ascending knots in [0, 1] with
/// non-decreasing values in [0, 1] (isotonic), and none of another method's parameters.
void checkCalibration(const ProbabilityCalibration& calibration);

}  // namespace deeptune::model
