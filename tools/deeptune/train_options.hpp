// What deeptune train and evaluate say of the training options they share.
#pragma once

#include "model/train_option_names.hpp"

namespace deeptune::cli {

/// The --lstm option's help text.
constexpr const char* kLstmHelp =
    "fast (the hand-written LSTM, default) or stock (LibTorch's nn::LSTM, the reference): the "
    "same function";

}  // namespace deeptune::cli
