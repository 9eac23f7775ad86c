// The names of the training options that train and evaluate take (--batching, --lstm), both ways.
#pragma once

#include <string>

#include "model/deeptune_model.hpp"

namespace deeptune::model {

/// "rows", "random" or "length"; throws ModelError for another name.
TrainOptions::Batching parseBatching(const std::string& name);

/// The name parseBatching() reads as `batching`.
std::string batchingName(TrainOptions::Batching batching);

/// "fast" (the hand-written LSTM) or "stock" (LibTorch's); throws ModelError for another name.
TrainOptions::Lstm parseLstm(const std::string& name);

/// The name parseLstm() reads as `lstm`.
std::string lstmName(TrainOptions::Lstm lstm);

/// What the names of parseLstm() mean, for a command's help.
constexpr const char* kLstmNamesHelp =
    "fast (the hand-written LSTM, default) or stock (LibTorch's nn::LSTM, the reference): the "
    "same function";

}  // namespace deeptune::model
