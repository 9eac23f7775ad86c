// ModelError: the model module's one exception type (network, training, model files).
#pragma once

#include "data/one_line_error.hpp"

namespace deeptune::model {

/// Thrown by every function of the model module; what() is one line.
class ModelError : public data::OneLineError {
 public:
  using OneLineError::OneLineError;
};

}  // namespace deeptune::model
