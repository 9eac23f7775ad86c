// Internal: what a DeepTuneModel holds, shared by training, prediction and the model file.
#pragma once

#include <memory>
#include <mutex>

#include "model/deeptune_model.hpp"
#include "model/internal/deeptune_net.hpp"
#include "model/internal/network_tensors.hpp"
#include "model/internal/single_sequence_net.hpp"

namespace deeptune::model {

struct DeepTuneModel::Impl {
  ModelInfo info;
  internal::DeepTuneNet net{nullptr};
  /// predictOne()'s copy of the weights, built on first use; dropped when the weights change.
  mutable std::mutex singleMutex;
  mutable std::shared_ptr<const internal::SingleSequenceNet> single;

  /// The weights are about to change: predictOne() lays them out again on its next call.
  void dropSingleSequenceNet() {
    std::lock_guard<std::mutex> lock(singleMutex);
    single.reset();
  }
};

namespace internal {

/// Network sizes for a model's metadata (vocabulary, aux inputs, labels).
DeepTuneNetOptions networkOptions(const ModelInfo& info);

/// The network's parameters and buffers as the model file stores them (networkTensorLayout's
/// tensors, with values).
std::vector<NamedTensor> networkTensors(DeepTuneNetImpl& net, const ModelInfo& info);

/// Copies `tensors` (networkTensorLayout's) into the network; throws ModelError for one that
/// does not fit it.
void loadNetworkTensors(DeepTuneNetImpl& net, const std::vector<NamedTensor>& tensors);

}  // namespace internal
}  // namespace deeptune::model
