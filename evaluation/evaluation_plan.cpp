// What `evaluate` runs, checked before any training: the methods of each task, the baselines'
// predictions under a protocol and the report folder.
#include "evaluation/evaluation_plan.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <utility>

#include "baselines/grewe_tree.hpp"
#include "baselines/reference_methods.hpp"
#include "baselines/static_mapping.hpp"
#include "data/text_split.hpp"
#include "evaluation/cross_validation.hpp"
#include "evaluation/evaluation_error.hpp"
#include "evaluation/protocol.hpp"

namespace deeptune::evaluation {

const std::vector<std::string>& devmapMethods() {
  static const std::vector<std::string> methods = {
      "static",        "grewe",          "hand-tree", "memory",  "hand-boosted",
      "token-boosted", "source-boosted", "shipped",   "deeptune"};
  return methods;
}

const std::vector<std::string>& coarseningMethods() {
  static const std::vector<std::string> methods = {"static", "fixed",    "shipped",
                                                   "magni",  "deeptune", "deeptune-tl"};
  return methods;
}

std::vector<std::string> selectMethods(const std::string& list,
                                       const std::vector<std::string>& known,
                                       const std::string& task) {
  const std::vector<std::string> methods = data::splitText(list, ',');
  if (methods.empty()) throw EvaluationError("--methods names no method");
  for (const std::string& method : methods) {
    if (std::find(known.begin(), known.end(), method) == known.end()) {
      std::string names;
      for (const std::string& name : known) names += (names.empty() ? "" : ", ") + name;
      throw EvaluationError("unknown method '" + method + "' for " + task + " (" + names + ")");
    }
  }
  return methods;
}

MethodPredictions crossValidateMethod(const std::string& method,
                                      const std::vector<data::DevmapRow>& rows,
                                      const Protocol& protocol, const DevmapPredictor& predictor) {
  data::DevmapPredictions predicted = crossValidate(
      rows.size(), protocol.foldOfRow, withTrainingSubset(predictor, rows, protocol.subset));
  return MethodPredictions{method, std::move(predicted.devices), "",
                           std::move(predicted.gpuProbability)};
}

DevmapPredictor baselinePredictor(const std::string& method,
                                  const std::vector<data::DevmapRow>& rows) {
  if (method == "static") return baselines::staticMappingPredictor(rows);
  if (method == "grewe") return baselines::greweTreePredictor(rows);
  if (method == "hand-tree") return baselines::handFeatureTreePredictor(rows);
  if (method == "memory") return baselines::memoryPredictor(rows);
  throw EvaluationError("'" + method +
                        "' is not a device-mapping baseline (static, grewe, hand-tree, memory)");
}

void prepareReportFolder(const std::string& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec || !std::filesystem::is_directory(folder)) {
    throw EvaluationError(folder + ": cannot create the report folder" +
                          (ec ? ": " + ec.message() : std::string(": a file is in the way")));
  }
}

}  // namespace deeptune::evaluation
