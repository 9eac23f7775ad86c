// What `deeptune predict` prints for one kernel: the device or coarsening factor as a line of
// text or a JSON object.
#include "api/prediction_report.hpp"

#include <nlohmann/json.hpp>

#include "api/predictor.hpp"
#include "api/report_text.hpp"

namespace deeptune::api {
namespace {

/// The fields both tasks' JSON share: what the model read of the file.
nlohmann::json readingFields(const std::string& file, const std::string& kernel,
                             const std::string& modelPath, size_t tokens, size_t skipped,
                             const std::vector<std::string>& undeclared) {
  return {{"file", file},
          {"kernel", kernel},
          {"model", modelPath},
          {"tokens", tokens},
          {"skipped_characters", skipped},
          {"undeclared", undeclared}};
}

}  // namespace

std::string decisionText(const Decision& decision, const Predictor& predictor) {
  const std::string ensemble =
      predictor.networks() > 1
          ? ", the mean of " + std::to_string(predictor.networks()) + " networks'"
          : "";
  const std::string device = decision.modelDevice.empty()
                                 ? decision.deviceType
                                 : decision.modelDevice + " (" + decision.deviceType + ")";
  const std::string novelty = decision.nearestDistance >= 0
                                  ? formatText("; novelty %.2f", decision.nearestDistance)
                                  : std::string();
  return formatText("%s: %s (probability %.2f%s; %s%s)\n", decision.kernel.c_str(), device.c_str(),
                    decision.probability, ensemble.c_str(), decision.method.c_str(),
                    novelty.c_str());
}

std::string decisionJson(const Decision& decision, const std::string& file,
                         const std::string& modelPath, const Predictor& predictor, double dsize,
                         double wgsize) {
  nlohmann::json result = readingFields(file, decision.kernel, modelPath, decision.tokens,
                                        decision.skippedCharacters, decision.undeclared);
  result["device"] = decision.deviceType;
  if (!decision.modelDevice.empty()) result["device_name"] = decision.modelDevice;
  result["probability"] = decision.probability;
  result["unknown_share"] = decision.unknownShare;
  result["nearest_distance"] =
      decision.nearestDistance >= 0 ? nlohmann::json(decision.nearestDistance) : nlohmann::json();
  result["method"] = decision.method;
  result["networks"] = predictor.networks();
  if (decision.method == "deeptune") {
    result["head"] = predictor.boostedHeads() ? "boosted-trees" : "network";
  }
  result["dsize"] = dsize;
  result["wgsize"] = wgsize;
  return result.dump();
}

std::string factorPredictionText(const FactorPrediction& prediction) {
  return formatText("%s: coarsening factor %d (probability %.2f; %s)\n", prediction.kernel.c_str(),
                    prediction.factor, prediction.probability, prediction.method.c_str());
}

std::string factorPredictionJson(const FactorPrediction& prediction, const std::string& file,
                                 const std::string& modelPath) {
  nlohmann::json probabilities = nlohmann::json::array();
  for (const auto& [factor, probability] : prediction.probabilities) {
    probabilities.push_back({{"factor", factor}, {"probability", probability}});
  }
  nlohmann::json result = readingFields(file, prediction.kernel, modelPath, prediction.tokens,
                                        prediction.skippedCharacters, prediction.undeclared);
  result["factor"] = prediction.factor;
  result["method"] = prediction.method;
  result["probability"] = prediction.probability;
  result["probabilities"] = probabilities;
  return result.dump();
}

}  // namespace deeptune::api
