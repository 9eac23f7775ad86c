// Options shared by deeptune train and evaluate.
#pragma once

#include <string>

#include "model/deeptune_model.hpp"

namespace deeptune::cli {

/// --batching: "rows", "random" or "length"; throws UsageError otherwise.
model::TrainOptions::Batching parseBatching(const std::string& name);

/// The --batching name of `batching`.
std::string batchingName(model::TrainOptions::Batching batching);

/// --lstm: "fast" (the hand-written LSTM) or "stock" (LibTorch's); throws UsageError otherwise.
model::TrainOptions::Lstm parseLstm(const std::string& name);

/// The --lstm name of `lstm`.
std::string lstmName(model::TrainOptions::Lstm lstm);

/// The --lstm option's help text.
constexpr const char* kLstmHelp =
    "fast (the hand-written LSTM, default) or stock (LibTorch's nn::LSTM, the reference): the "
    "same function";

}  // namespace deeptune::cli
