// The DeepTune network's tensors by name and shape (the model file's weights, without LibTorch).
#include "model/internal/network_tensors.hpp"

#include "model/model_error.hpp"

namespace deeptune::model::internal {

NetworkSizes networkSizesOf(const ModelInfo& info) {
  NetworkSizes sizes;
  sizes.vocabulary = static_cast<int64_t>(info.vocabulary.size());
  sizes.auxInputs = static_cast<int64_t>(info.auxInputs.size());
  sizes.outputs = static_cast<int64_t>(info.labels.size());
  sizes.lstm = info.lstmSize;
  return sizes;
}

std::vector<NamedTensor> networkTensorLayout(const NetworkSizes& sizes) {
  const int64_t gates = 4 * sizes.lstm;
  const int64_t joined = sizes.auxInputs + sizes.lstm;
  std::vector<NamedTensor> layout = {{"embedding.weight", {sizes.vocabulary + 1, sizes.embedding}}};
  for (int layer = 0; layer < 2; ++layer) {
    const std::string suffix = "_l" + std::to_string(layer);
    layout.push_back(
        {"lstm.weight_ih" + suffix, {gates, layer == 0 ? sizes.embedding : sizes.lstm}});
    layout.push_back({"lstm.weight_hh" + suffix, {gates, sizes.lstm}});
    layout.push_back({"lstm.bias_ih" + suffix, {gates}});
    layout.push_back({"lstm.bias_hh" + suffix, {gates}});
  }
  layout.push_back({"language_model_head.weight", {sizes.outputs, sizes.lstm}});
  layout.push_back({"language_model_head.bias", {sizes.outputs}});
  for (const char* name : {"weight", "bias", "running_mean", "running_var"}) {
    layout.push_back({std::string("batch_norm.") + name, {joined}});
  }
  layout.push_back({"batch_norm.num_batches_tracked", {}});
  layout.push_back({"dense.weight", {sizes.dense, joined}});
  layout.push_back({"dense.bias", {sizes.dense}});
  layout.push_back({"output.weight", {sizes.outputs, sizes.dense}});
  layout.push_back({"output.bias", {sizes.outputs}});
  return layout;
}

const NamedTensor& tensorNamed(const std::vector<NamedTensor>& tensors, const std::string& name) {
  for (const NamedTensor& tensor : tensors) {
    if (tensor.name == name) return tensor;
  }
  throw ModelError("the network has no tensor '" + name + "'");
}

}  // namespace deeptune::model::internal
