// Options shared by deeptune train and evaluate.
#pragma once

#include <string>

#include "model/deeptune_model.hpp"

namespace deeptune::cli {

/// --batching: "rows", "random" or "length"; throws UsageError otherwise.
model::TrainOptions::Batching parseBatching(const std::string& name);

/// The --batching name of `batching`.
std::string batchingName(model::TrainOptions::Batching batching);

}  // namespace deeptune::cli
