// TrainingError: the training module's one exception type (training requests, learned methods,
// the evaluation runs that train them).
#pragma once

#include "data/one_line_error.hpp"

namespace deeptune::training {

/// Thrown by every function of the training module; what() is one line.
class TrainingError : public data::OneLineError {
 public:
  using OneLineError::OneLineError;
};

}  // namespace deeptune::training
