// Internal: the DeepTune network's tensors by name and shape, and their values without LibTorch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/deeptune_model.hpp"

namespace deeptune::model::internal {

/// The network's sizes (SPEC.md §3); all but the vocabulary, aux inputs and outputs are the
/// paper's.
struct NetworkSizes {
  int64_t vocabulary = 128;  ///< tokens; the embedding has one more row (the pad value)
  int64_t embedding = 64;
  int64_t lstm = 64;
  int64_t auxInputs = 2;
  int64_t dense = 32;
  int64_t outputs = 2;
};

/// The sizes of the network a model's metadata (vocabulary, aux inputs, labels) describes.
NetworkSizes networkSizesOf(const ModelInfo& info);

/// Keras' BatchNormalization epsilon, which the network uses.
constexpr double kBatchNormEpsilon = 1e-3;

/// One tensor of the network: its name (the LibTorch module's, e.g. "lstm.weight_ih_l0"), its
/// shape, and its values as float32 in row-major order (empty in a layout).
struct NamedTensor {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> values;
};

/// Every parameter and buffer of the network, in the model file's order, without values.
std::vector<NamedTensor> networkTensorLayout(const NetworkSizes& sizes);

/// The tensor called `name` in `tensors`; throws ModelError if there is none.
const NamedTensor& tensorNamed(const std::vector<NamedTensor>& tensors, const std::string& name);

}  // namespace deeptune::model::internal
