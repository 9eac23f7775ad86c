// InferenceModel: a model file's network for prediction alone, without LibTorch (embedding, CLI).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/boosted_tree_head.hpp"
#include "model/deeptune_model.hpp"
#include "model/source_features.hpp"

namespace deeptune::model {

namespace internal {
class SingleSequenceNet;
}

/// A trained model read for prediction: the single-sequence path of DeepTuneModel::predictOne
/// (model/README.md), without LibTorch, training or the batch path. Reads model files of format
/// version 3 to 8 (5 and 6: several networks whose probabilities are averaged, each through its
/// boosted-tree head where it has one; 6: the measured devices its labels stand for; 7: a
/// predictor without a network, ModelInfo::method source-boosted or fixed-factor; 8: such a
/// predictor with a calibration); a
/// version-2 file (weights as a LibTorch archive) is refused with how to convert it. Immutable
/// after load: predict() may run on several threads at once.
class InferenceModel {
 public:
  /// Reads and checks `path`; throws ModelError starting with `path`.
  static InferenceModel load(const std::string& path);
  /// A predictor without a network (info.method source-boosted, with its `forest`, or
  /// fixed-factor), as load() would read it back from the file savePredictorFile writes.
  static InferenceModel ofPredictor(ModelInfo info, std::vector<BoostedTreeHead> forest);

  const ModelInfo& info() const { return info_; }
  /// Whether predict() reads Example::staticCounts (a source-boosted predictor over counts or
  /// ratios); a caller computes them only then.
  bool readsStaticCounts() const;

  /// The main output's probabilities (normalized to sum 1) for one example: of one network
  /// without a head, what DeepTuneModel::predictOne gives; of several, their mean, each network's
  /// through its boosted-tree head where it has one. Throws ModelError for an example the model
  /// cannot read (token ids outside the vocabulary, too many tokens, aux inputs missing or not
  /// finite, static counts missing where the predictor reads them). A source-boosted model
  /// answers with its boosted-tree models' mean probability, through its calibration where it
  /// has one (format 8); a fixed factor with certainty.
  std::vector<float> predict(const Example& example) const;

  /// How far `tokens` (a kernel's ids under the model's vocabulary) are from the nearest of the
  /// programs the model was trained on (TrainingPrograms::nearestDistance, 0 to 1); -1 for a
  /// model file that does not keep them.
  double nearestDistance(const std::vector<int>& tokens) const;

 private:
  struct Network {
    std::shared_ptr<const internal::SingleSequenceNet> net;
    std::shared_ptr<const BoostedTreeHead> head;  ///< null: the network's own output layer
  };
  InferenceModel(ModelInfo info, std::vector<Network> networks,
                 std::vector<BoostedTreeHead> forest);
  std::vector<float> predictWithoutNetwork(const Example& example) const;
  ModelInfo info_;
  std::vector<Network> networks_;
  std::vector<BoostedTreeHead> forest_;  ///< source-boosted
  std::vector<SourceFeatureSet> views_;  ///< source-boosted: forest_[m] reads views_[m % size]
};

/// Writes a predictor without a network (format 7, or 8 with a calibration; model/README.md,
/// "Predictors"): info.method
/// "source-boosted" with its `forest` (1 to 64 boosted-tree models over info.sourceFeatures rows,
/// averaged) or "fixed-factor" (none). Atomic; throws ModelError for metadata or trees that do
/// not fit.
void savePredictorFile(const std::string& path, const ModelInfo& info,
                       const std::vector<BoostedTreeHead>& forest);

}  // namespace deeptune::model
