// InferenceModel: a model file's network for prediction alone, without LibTorch (embedding, CLI).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/boosted_tree_head.hpp"
#include "model/deeptune_model.hpp"

namespace deeptune::model {

namespace internal {
class SingleSequenceNet;
}

/// A trained model read for prediction: the single-sequence path of DeepTuneModel::predictOne
/// (model/README.md), without LibTorch, training or the batch path. Reads model files of format
/// version 3 to 6 (5 and 6: several networks whose probabilities are averaged, each through its
/// boosted-tree head where it has one; 6: the measured devices its labels stand for); a
/// version-2 file (weights as a LibTorch archive) is refused with how to convert it. Immutable
/// after load: predict() may run on several threads at once.
class InferenceModel {
 public:
  /// Reads and checks `path`; throws ModelError starting with `path`.
  static InferenceModel load(const std::string& path);

  const ModelInfo& info() const { return info_; }

  /// The main output's probabilities (normalized to sum 1) for one example: of one network
  /// without a head, what DeepTuneModel::predictOne gives; of several, their mean, each network's
  /// through its boosted-tree head where it has one. Throws ModelError for an example the model
  /// cannot read (token ids outside the vocabulary, too many tokens, aux inputs missing or not
  /// finite).
  std::vector<float> predict(const Example& example) const;

 private:
  struct Network {
    std::shared_ptr<const internal::SingleSequenceNet> net;
    std::shared_ptr<const BoostedTreeHead> head;  ///< null: the network's own output layer
  };
  InferenceModel(ModelInfo info, std::vector<Network> networks);
  ModelInfo info_;
  std::vector<Network> networks_;
};

}  // namespace deeptune::model
