// ApiError: the api module's one exception type, for a launch query the facade cannot answer.
#pragma once

#include <stdexcept>
#include <string>

namespace deeptune::api {

/// Thrown by the api module's own code: its checks of a malformed query (device_legality.hpp,
/// advisor.hpp: an ND-range that is not one, no candidate device, a candidate that is not a
/// device, no candidate that can run the range) and the out-of-process prediction service's
/// client (prediction_client.hpp: a service that does not start, fails or does not answer in
/// time). what() names the value and why. It is an std::invalid_argument, so an application that
/// caught that before still catches it. Errors of the modules the facade joins pass through as
/// their own types (runtime::RuntimeError, rewriter::RewriteError, model::ModelError,
/// data::DataError).
class ApiError : public std::invalid_argument {
 public:
  explicit ApiError(const std::string& message) : std::invalid_argument(message) {}
};

}  // namespace deeptune::api
