// EvaluationError: the evaluation module's one exception type (protocols, cross-validation,
// metrics, reports).
#pragma once

#include "data/one_line_error.hpp"

namespace deeptune::evaluation {

/// Thrown by every function of the evaluation module; what() is one line.
class EvaluationError : public data::OneLineError {
 public:
  using OneLineError::OneLineError;
};

}  // namespace deeptune::evaluation
