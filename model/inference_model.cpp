// InferenceModel: a version-3 or -4 model file's network for prediction, without LibTorch.
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

InferenceModel::InferenceModel(ModelInfo info,
                               std::shared_ptr<const internal::SingleSequenceNet> net)
    : info_(std::move(info)), net_(std::move(net)) {}

InferenceModel InferenceModel::load(const std::string& path) {
  internal::ModelFile file = internal::readModelFile(path);
  if (file.formatVersion == 2) {
    throw ModelError(path + ": model format version " + std::to_string(file.formatVersion) +
                     " (weights as a LibTorch archive), which prediction without LibTorch cannot " +
                     "read; convert it: deeptune upgrade-model '" + path + "' -o NEW.model");
  }
  auto net = std::make_shared<const internal::SingleSequenceNet>(file.tensors, file.info);
  return InferenceModel(std::move(file.info), std::move(net));
}

std::vector<float> InferenceModel::predict(const Example& example) const {
  internal::checkExamples({example}, info_, /*training=*/false);
  return net_->predict(example.tokens, internal::scaledAuxInputs(info_, example.aux));
}

}  // namespace deeptune::model
