// InferenceModel: a model file's predictor (networks or boosted trees) for prediction, no LibTorch.
#include "model/inference_model.hpp"

#include <algorithm>
#include <cmath>

#include "model/internal/example_checks.hpp"
#include "model/internal/model_file_format.hpp"
#include "model/internal/single_sequence_net.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {
namespace internal {

void checkExamples(const std::vector<Example>& examples, const ModelInfo& info, bool training) {
  for (size_t i = 0; i < examples.size(); ++i) {
    const Example& example = examples[i];
    if (example.aux.size() != info.auxInputs.size()) {
      throw ModelError("example " + std::to_string(i) + ": " + std::to_string(example.aux.size()) +
                       " auxiliary inputs, the model takes " +
                       std::to_string(info.auxInputs.size()));
    }
    for (float value : example.aux) {
      if (!std::isfinite(value)) {
        throw ModelError("example " + std::to_string(i) + ": auxiliary input " +
                         std::to_string(value) + " is not a finite number");
      }
    }
    if (training && (example.label < 0 || example.label >= static_cast<int>(info.labels.size()))) {
      throw ModelError("example " + std::to_string(i) + ": label " + std::to_string(example.label) +
                       " outside 0.." + std::to_string(info.labels.size() - 1));
    }
    for (int token : example.tokens) {
      if (token < 0 || token >= static_cast<int>(info.vocabulary.size())) {
        throw ModelError("example " + std::to_string(i) + ": token id " + std::to_string(token) +
                         " outside the vocabulary of " + std::to_string(info.vocabulary.size()));
      }
    }
    if (static_cast<int>(example.tokens.size()) > info.maxLength) {
      throw ModelError("example " + std::to_string(i) + ": " +
                       std::to_string(example.tokens.size()) + " tokens, over the model's " +
                       std::to_string(info.maxLength) + " (truncate first)");
    }
  }
}

std::vector<float> scaledAuxInputs(const ModelInfo& info, const std::vector<float>& aux) {
  std::vector<float> scaled;
  scaled.reserve(aux.size());
  for (float value : aux) scaled.push_back(scaledAuxInput(info, value));
  return scaled;
}

}  // namespace internal

float scaledAuxInput(const ModelInfo& info, float value) {
  if (info.auxScale == "log2") return std::log2(1.0f + std::max(0.0f, value));
  return value;
}

InferenceModel::InferenceModel(ModelInfo info, std::vector<Network> networks,
                               std::vector<BoostedTreeHead> forest)
    : info_(std::move(info)), networks_(std::move(networks)), forest_(std::move(forest)) {
  if (info_.method == "source-boosted") views_ = parseSourceFeatureViews(info_.sourceFeatures);
}

InferenceModel InferenceModel::load(const std::string& path) {
  internal::ModelFile file = internal::readModelFile(path);
  if (file.formatVersion == 2) {
    throw ModelError(path + ": model format version " + std::to_string(file.formatVersion) +
                     " (weights as a LibTorch archive), which prediction without LibTorch cannot " +
                     "read (this deeptune writes versions 4 to " +
                     std::to_string(internal::kModelFormatVersion) +
                     "); convert it: deeptune upgrade-model '" + path + "' -o NEW.model");
  }
  if (file.info.method == "language-model") {
    throw ModelError(path +
                     ": a pretrained language model, which chooses nothing; fine-tune it "
                     "on labelled data first: deeptune train --from '" +
                     path + "'");
  }
  std::vector<Network> networks;
  for (internal::ModelMember& member : file.members) {
    Network network;
    network.net = std::make_shared<const internal::SingleSequenceNet>(member.tensors, file.info);
    if (member.head) network.head = std::make_shared<const BoostedTreeHead>(*member.head);
    networks.push_back(std::move(network));
  }
  return InferenceModel(std::move(file.info), std::move(networks), std::move(file.forest));
}

bool InferenceModel::readsStaticCounts() const {
  return std::any_of(views_.begin(), views_.end(),
                     [](const SourceFeatureSet& view) { return view.staticCounts || view.ratios; });
}

InferenceModel InferenceModel::ofPredictor(ModelInfo info, std::vector<BoostedTreeHead> forest) {
  info.networks = 0;
  info.forest = static_cast<int>(forest.size());
  return InferenceModel(std::move(info), {}, std::move(forest));
}

void savePredictorFile(const std::string& path, const ModelInfo& info,
                       const std::vector<BoostedTreeHead>& forest) {
  internal::writePredictorFile(path, info, forest);
}

std::vector<float> InferenceModel::predictWithoutNetwork(const Example& example) const {
  std::vector<float> probabilities(info_.labels.size(), 0.0f);
  if (info_.method == "fixed-factor") {
    probabilities.at(static_cast<size_t>(info_.fixedLabel)) = 1.0f;
    return probabilities;
  }
  const std::vector<double> aux(example.aux.begin(), example.aux.end());
  std::vector<std::vector<float>> rows;
  for (const SourceFeatureSet& view : views_) {
    rows.push_back(
        sourceFeatureRow(view, example.tokens, info_.vocabulary.size(), example.staticCounts, aux));
  }
  double gpu = 0;
  for (size_t m = 0; m < forest_.size(); ++m) {
    gpu += boostedTreeProbability(forest_[m], rows[m % rows.size()]);
  }
  gpu = info_.calibration.apply(gpu / static_cast<double>(forest_.size()));
  return {static_cast<float>(1.0 - gpu), static_cast<float>(gpu)};
}

double InferenceModel::nearestDistance(const std::vector<int>& tokens) const {
  return info_.trainingPrograms ? info_.trainingPrograms->nearestDistance(tokens) : -1;
}

std::vector<float> InferenceModel::predict(const Example& example) const {
  internal::checkExamples({example}, info_, /*training=*/false);
  if (networks_.empty()) return predictWithoutNetwork(example);
  const std::vector<float> scaled = internal::scaledAuxInputs(info_, example.aux);
  if (networks_.size() == 1 && !networks_.front().head) {
    return networks_.front().net->predict(example.tokens, scaled);
  }
  const std::vector<double> rawAux(example.aux.begin(), example.aux.end());
  std::vector<float> mean(info_.labels.size(), 0.0f);
  for (const Network& network : networks_) {
    std::vector<float> probabilities;
    if (network.head) {
      const double p = boostedTreeProbability(
          *network.head, headFeatures(*network.head, network.net->pooledState(example.tokens),
                                      example.tokens, info_.vocabulary.size(), rawAux));
      probabilities = {static_cast<float>(1.0 - p), static_cast<float>(p)};
    } else {
      probabilities = network.net->predict(example.tokens, scaled);
    }
    for (size_t k = 0; k < mean.size(); ++k) mean[k] += probabilities.at(k) / networks_.size();
  }
  return mean;
}

}  // namespace deeptune::model
