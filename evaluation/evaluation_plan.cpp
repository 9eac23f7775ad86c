// What `evaluate` runs, checked before any training: the fold assignment of a protocol, the
// methods of each task, the baselines' predictions and the report folder.
#include "evaluation/evaluation_plan.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "baselines/grewe_tree.hpp"
#include "baselines/reference_methods.hpp"
#include "baselines/static_mapping.hpp"
#include "data/text_split.hpp"
#include "evaluation/cross_validation.hpp"
#include "evaluation/evaluation_error.hpp"

namespace deeptune::evaluation {

const std::vector<std::string>& devmapMethods() {
  static const std::vector<std::string> methods = {
      "static", "grewe", "hand-tree", "memory", "hand-boosted", "token-boosted", "deeptune"};
  return methods;
}

const std::vector<std::string>& coarseningMethods() {
  static const std::vector<std::string> methods = {"static", "fixed", "magni", "deeptune",
                                                   "deeptune-tl"};
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

DevmapProtocol devmapProtocol(const std::string& name, const std::vector<data::DevmapRow>& rows,
                              const std::string& foldsPath, uint64_t seed) {
  DevmapProtocol protocol;
  if (name == "folds") {
    if (foldsPath.empty()) throw EvaluationError("--protocol folds needs a folds file (--folds)");
    protocol.foldOfRow = foldOfRows(rows, data::readFoldsCsv(foldsPath));
    protocol.description = "cross-validation on the folds of " + foldsPath;
  } else if (name == "suite") {
    protocol.foldOfRow = foldsBySuite(rows);
    protocol.description = "leave one suite out";
  } else if (name == "kernel") {
    // 10 folds, or one per source for data of fewer sources (a small measured set)
    std::set<std::string> sources;
    for (const data::DevmapRow& row : rows) sources.insert(row.src);
    const int k = static_cast<int>(std::min<size_t>(10, sources.size()));
    protocol.foldOfRow = foldsByKernel(rows, k, seed);
    protocol.description =
        std::to_string(k) + " folds grouped by kernel source (no source in both train and test)";
  } else {
    throw EvaluationError("unknown protocol '" + name + "' (folds, suite, kernel)");
  }
  protocol.name = name;
  protocol.vocabularyPerFold = name != "folds";
  if (protocol.foldOfRow.empty()) throw EvaluationError("no rows to evaluate");
  protocol.folds = *std::max_element(protocol.foldOfRow.begin(), protocol.foldOfRow.end()) + 1;
  return protocol;
}

std::string DevmapProtocol::whatMethodsSaw() const {
  return "what each method saw: the training folds' rows only (labels, counts, sizes, sources); " +
         std::string(vocabularyPerFold
                         ? "DeepTune's vocabulary derived from each fold's training sources"
                         : "DeepTune's vocabulary derived from every source of the data (the "
                           "paper's; tokens only, no labels)");
}

MethodPredictions crossValidateMethod(const std::string& method,
                                      const std::vector<data::DevmapRow>& rows,
                                      const DevmapProtocol& protocol,
                                      const DevmapPredictor& predictor) {
  return MethodPredictions{method,
                           crossValidate(rows.size(), protocol.foldOfRow,
                                         withTrainingSubset(predictor, rows, protocol.subset))};
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

MethodPredictions devmapBaseline(const std::string& method,
                                 const std::vector<data::DevmapRow>& rows,
                                 const DevmapProtocol& protocol) {
  return crossValidateMethod(method, rows, protocol, baselinePredictor(method, rows));
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
