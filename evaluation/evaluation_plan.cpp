// What `evaluate` runs, checked before any training: the fold assignment of a protocol, the
// methods of each task, the baselines' predictions and the report folder.
#include "evaluation/evaluation_plan.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "baselines/grewe_tree.hpp"
#include "baselines/reference_methods.hpp"
#include "baselines/static_mapping.hpp"
#include "data/text_split.hpp"
#include "evaluation/boosted_trees.hpp"
#include "evaluation/cross_validation.hpp"
#include "evaluation/evaluation_error.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::evaluation {
namespace {

/// Each test row's device by XGBoost (BoostedTreeOptions' defaults) fitted on the training rows'
/// features and oracle labels.
std::vector<std::string> boostedDevices(const std::vector<data::DevmapRow>& rows,
                                        const std::vector<size_t>& train,
                                        const std::vector<std::vector<float>>& trainFeatures,
                                        const std::vector<std::vector<float>>& testFeatures) {
  std::vector<int> labels;
  for (size_t i : train) labels.push_back(rows.at(i).oracle == "GPU" ? 1 : 0);
  std::vector<std::string> devices;
  for (double gpu : boostedTreeProbabilities(trainFeatures, labels, testFeatures)) {
    devices.push_back(gpu > 0.5 ? "GPU" : "CPU");
  }
  return devices;
}

/// The hand features' boosted trees: boostedDevices on baselines::handFeatures.
data::DevmapPredictor handBoostedPredictor(const std::vector<data::DevmapRow>& rows) {
  auto data = std::make_shared<const std::vector<data::DevmapRow>>(rows);
  return [data](const std::vector<size_t>& train, const std::vector<size_t>& test, int) {
    const auto features = [&data](const std::vector<size_t>& indices) {
      std::vector<std::vector<float>> x;
      for (size_t i : indices) {
        const auto hand = baselines::handFeatures(data->at(i));
        x.emplace_back(hand.begin(), hand.end());
      }
      return x;
    };
    return boostedDevices(*data, train, features(train), features(test));
  };
}

/// Token counts with boosted trees: boostedDevices on each source's count of every token of the
/// fold's training vocabulary (tokens unknown to it skipped, as the tokenizer's prediction mode
/// does) and log2 transfer, wgsize (model::stateHeadFeatures). No hand-made feature: what a bag
/// of tokens learns from the source alone.
data::DevmapPredictor tokenBoostedPredictor(const std::vector<data::DevmapRow>& rows) {
  auto data = std::make_shared<const std::vector<data::DevmapRow>>(rows);
  return [data](const std::vector<size_t>& train, const std::vector<size_t>& test, int) {
    std::vector<std::string_view> sources;
    for (size_t i : train) sources.push_back(data->at(i).src);
    const tokenizer::Vocabulary vocabulary =
        tokenizer::Vocabulary::deriveFromTexts(sources, "the fold's training sources");
    std::map<std::string, std::vector<float>> countsOfSource;
    const auto features = [&](const std::vector<size_t>& indices) {
      std::vector<std::vector<float>> x;
      for (size_t i : indices) {
        const data::DevmapRow& row = data->at(i);
        auto found = countsOfSource.find(row.src);
        if (found == countsOfSource.end()) {
          const auto ids = vocabulary.encode(row.src, tokenizer::UnknownPolicy::kSkip).ids;
          found = countsOfSource.emplace(row.src, model::tokenCounts(ids, vocabulary.size())).first;
        }
        x.push_back(model::stateHeadFeatures(found->second,
                                             {row.transfer, static_cast<double>(row.wgsize)}));
      }
      return x;
    };
    return boostedDevices(*data, train, features(train), features(test));
  };
}

}  // namespace

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
  if (protocol.foldOfRow.empty()) throw EvaluationError("no rows to evaluate");
  protocol.folds = *std::max_element(protocol.foldOfRow.begin(), protocol.foldOfRow.end()) + 1;
  return protocol;
}

MethodPredictions devmapBaseline(const std::string& method,
                                 const std::vector<data::DevmapRow>& rows,
                                 const DevmapProtocol& protocol) {
  const auto run = [&](const DevmapPredictor& predictor) {
    return MethodPredictions{method,
                             crossValidate(rows.size(), protocol.foldOfRow,
                                           withTrainingSubset(predictor, rows, protocol.subset))};
  };
  if (method == "static") return run(baselines::staticMappingPredictor(rows));
  if (method == "grewe") return run(baselines::greweTreePredictor(rows));
  if (method == "hand-tree") return run(baselines::handFeatureTreePredictor(rows));
  if (method == "hand-boosted") return run(handBoostedPredictor(rows));
  if (method == "token-boosted") return run(tokenBoostedPredictor(rows));
  if (method == "memory") return run(baselines::memoryPredictor(rows));
  throw EvaluationError("'" + method +
                        "' is not a device-mapping baseline (static, grewe, hand-tree, memory, "
                        "hand-boosted, token-boosted)");
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
