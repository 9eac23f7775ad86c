// Internal: the checks every example passes before a network reads it (training or prediction).
#pragma once

#include <vector>

#include "model/deeptune_model.hpp"

namespace deeptune::model::internal {

/// Throws ModelError naming the first example whose aux inputs, label (when `training`) or
/// tokens the model `info` describes cannot read.
void checkExamples(const std::vector<Example>& examples, const ModelInfo& info, bool training);

/// The auxiliary inputs of one example as the network reads them (scaledAuxInput of each).
std::vector<float> scaledAuxInputs(const ModelInfo& info, const std::vector<float>& aux);

}  // namespace deeptune::model::internal
