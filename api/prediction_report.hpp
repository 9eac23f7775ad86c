// What `deeptune predict` prints for one kernel: the device or coarsening factor as a line of
// text or a JSON object.
#pragma once

#include <string>

#include "api/decision.hpp"

namespace deeptune::api {

class Predictor;
struct FactorPrediction;

/// "KERNEL: DEVICE (probability P[, the mean of N networks'])\n"; DEVICE is the model's device
/// name with its type in parentheses for a model of named devices.
std::string decisionText(const Decision& decision, const Predictor& predictor);

/// One JSON object on one line (no '\n'): file, kernel, model, tokens, skipped_characters,
/// undeclared, device, device_name (models of named devices), probability, networks, head,
/// dsize, wgsize.
std::string decisionJson(const Decision& decision, const std::string& file,
                         const std::string& modelPath, const Predictor& predictor, double dsize,
                         double wgsize);

/// "KERNEL: coarsening factor F (probability P)\n".
std::string factorPredictionText(const FactorPrediction& prediction);

/// One JSON object on one line (no '\n'): file, kernel, model, tokens, skipped_characters,
/// undeclared, factor, probability, probabilities (every factor's).
std::string factorPredictionJson(const FactorPrediction& prediction, const std::string& file,
                                 const std::string& modelPath);

}  // namespace deeptune::api
