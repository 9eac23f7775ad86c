// BaselineError: the baselines module's one exception type.
#pragma once

#include "data/one_line_error.hpp"

namespace deeptune::baselines {

/// Thrown by every baseline and reference method; what() is one line.
class BaselineError : public data::OneLineError {
 public:
  using OneLineError::OneLineError;
};

}  // namespace deeptune::baselines
