// The references that learn with boosted trees: hand-boosted and token-boosted.
#include "training/boosted_references.hpp"

#include <map>
#include <memory>

#include "baselines/reference_methods.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "model/boosted_trees.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::training {
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
  for (double gpu : model::boostedTreeProbabilities(trainFeatures, labels, testFeatures)) {
    devices.push_back(gpu > 0.5 ? "GPU" : "CPU");
  }
  return devices;
}

}  // namespace

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

data::DevmapPredictor referencePredictor(const std::string& method,
                                         const std::vector<data::DevmapRow>& rows) {
  if (method == "hand-boosted") return handBoostedPredictor(rows);
  if (method == "token-boosted") return tokenBoostedPredictor(rows);
  return evaluation::baselinePredictor(method, rows);
}

}  // namespace deeptune::training
