// `deeptune validate --task coarsening`: the predicted factor judged on every device against
// each factor's run, and the report of it as text or JSON.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/verdict.hpp"

namespace deeptune::api {

struct FactorPrediction;

/// One kernel's factors run on every device and the model's factor judged on each.
struct FactorValidation {
  std::string file;   ///< the source's name in reports
  std::string model;  ///< the model file
  size_t gsize = 0;   ///< global size before coarsening
  std::string kernel;
  size_t predicted = 1;  ///< the model's factor
  double probability = 0;
  std::string method;                    ///< the predictor that answered (FactorPrediction::method)
  std::vector<runtime::FactorRun> runs;  ///< as api::runFactors() returned them
  std::vector<runtime::FactorVerdict> verdicts;  ///< one per device

  /// Whether any device could judge the prediction (a speedup was measured).
  bool judged() const;
};

/// Judges `prediction` on each of `deviceCount` devices of `runs` (runtime::judgeFactor).
FactorValidation judgeFactors(const std::string& file, const std::string& model, size_t gsize,
                              const FactorPrediction& prediction,
                              std::vector<runtime::FactorRun> runs, size_t deviceCount);

/// The text report: the kernel, the prediction, then per device each factor's kernel time (or
/// status) and the verdict; lines ending with '\n'.
std::string factorValidationText(const FactorValidation& validation,
                                 const std::vector<runtime::DeviceInfo>& devices);

/// The same as one JSON object on one line (no '\n'): file, kernel, gsize, model, predicted,
/// probability, devices (each with its factors, best_factor, speedup, of_oracle, note).
std::string factorValidationJson(const FactorValidation& validation,
                                 const std::vector<runtime::DeviceInfo>& devices);

}  // namespace deeptune::api
