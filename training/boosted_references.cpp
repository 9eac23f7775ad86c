// The references that learn with boosted trees: hand-boosted and token-boosted.
#include "training/boosted_references.hpp"

#include <memory>

#include "baselines/reference_methods.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "model/boosted_trees.hpp"
#include "training/source_boosted.hpp"

namespace deeptune::training {
namespace {

/// Each test row's device and GPU probability by XGBoost (BoostedTreeOptions' defaults) fitted
/// on the training rows' features and oracle labels.
data::DevmapPredictions boostedDevices(const std::vector<data::DevmapRow>& rows,
                                       const std::vector<size_t>& train,
                                       const std::vector<std::vector<float>>& trainFeatures,
                                       const std::vector<std::vector<float>>& testFeatures) {
  std::vector<int> labels;
  for (size_t i : train) labels.push_back(rows.at(i).oracle == "GPU" ? 1 : 0);
  data::DevmapPredictions predicted;
  predicted.gpuProbability = model::boostedTreeProbabilities(trainFeatures, labels, testFeatures);
  for (double gpu : predicted.gpuProbability)
    predicted.devices.push_back(gpu > 0.5 ? "GPU" : "CPU");
  return predicted;
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
  return sourceBoostedPredictor(rows, tokenBoostedOptions());
}

data::DevmapPredictor referencePredictor(const std::string& method,
                                         const std::vector<data::DevmapRow>& rows) {
  if (method == "hand-boosted") return handBoostedPredictor(rows);
  if (method == "token-boosted") return tokenBoostedPredictor(rows);
  return evaluation::baselinePredictor(method, rows);
}

}  // namespace deeptune::training
