// Internal: what a DeepTuneModel holds, shared by training, prediction and the model file.
#pragma once

#include <mutex>

#include "model/deeptune_model.hpp"
#include "model/internal/deeptune_net.hpp"

namespace deeptune::model {

struct DeepTuneModel::Impl {
  ModelInfo info;
  internal::DeepTuneNet net{nullptr};
};

namespace internal {

/// Network sizes for a model's metadata (vocabulary, aux inputs, labels).
DeepTuneNetOptions networkOptions(const ModelInfo& info);

/// LibTorch's default generator is process-wide: seeding and initializing a network hold this.
std::mutex& initializationMutex();

}  // namespace internal
}  // namespace deeptune::model
