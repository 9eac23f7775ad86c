// What `evaluate` runs, checked before any training: the fold assignment of a protocol, the
// methods of each task, the baselines' predictions and the report folder.
#include "model/evaluation_plan.hpp"

#include <algorithm>
#include <filesystem>

#include "data/text_split.hpp"
#include "model/cross_validation.hpp"
#include "model/grewe_tree.hpp"
#include "model/model_error.hpp"
#include "model/reference_methods.hpp"
#include "model/static_mapping.hpp"

namespace deeptune::model {

const std::vector<std::string>& devmapMethods() {
  static const std::vector<std::string> methods = {"static", "grewe", "hand-tree", "memory",
                                                   "deeptune"};
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
  if (methods.empty()) throw ModelError("--methods names no method");
  for (const std::string& method : methods) {
    if (std::find(known.begin(), known.end(), method) == known.end()) {
      std::string names;
      for (const std::string& name : known) names += (names.empty() ? "" : ", ") + name;
      throw ModelError("unknown method '" + method + "' for " + task + " (" + names + ")");
    }
  }
  return methods;
}

DevmapProtocol devmapProtocol(const std::string& name, const std::vector<data::DevmapRow>& rows,
                              const std::string& foldsPath, uint64_t seed) {
  DevmapProtocol protocol;
  if (name == "folds") {
    if (foldsPath.empty()) throw ModelError("--protocol folds needs a folds file (--folds)");
    protocol.foldOfRow = foldOfRows(rows, data::readFoldsCsv(foldsPath));
    protocol.description = "cross-validation on the folds of " + foldsPath;
  } else if (name == "suite") {
    protocol.foldOfRow = foldsBySuite(rows);
    protocol.description = "leave one suite out";
  } else if (name == "kernel") {
    protocol.foldOfRow = foldsByKernel(rows, 10, seed);
    protocol.description = "10 folds grouped by kernel source (no source in both train and test)";
  } else {
    throw ModelError("unknown protocol '" + name + "' (folds, suite, kernel)");
  }
  if (protocol.foldOfRow.empty()) throw ModelError("no rows to evaluate");
  protocol.folds = *std::max_element(protocol.foldOfRow.begin(), protocol.foldOfRow.end()) + 1;
  return protocol;
}

MethodPredictions devmapBaseline(const std::string& method,
                                 const std::vector<data::DevmapRow>& rows,
                                 const DevmapProtocol& protocol) {
  if (method == "static") {
    return {method, crossValidate(rows.size(), protocol.foldOfRow, staticMappingPredictor(rows))};
  }
  if (method == "grewe") {
    return {method, crossValidate(rows.size(), protocol.foldOfRow, greweTreePredictor(rows))};
  }
  if (method == "hand-tree") {
    return {method, crossValidate(rows.size(), protocol.foldOfRow, handFeatureTreePredictor(rows))};
  }
  if (method == "memory") {
    return {method, crossValidate(rows.size(), protocol.foldOfRow, memoryPredictor(rows))};
  }
  throw ModelError("'" + method +
                   "' is not a device-mapping baseline (static, grewe, hand-tree, memory)");
}

void prepareReportFolder(const std::string& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec || !std::filesystem::is_directory(folder)) {
    throw ModelError(folder + ": cannot create the report folder" +
                     (ec ? ": " + ec.message() : std::string(": a file is in the way")));
  }
}

}  // namespace deeptune::model
