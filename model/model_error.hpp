// ModelError: the model module's one exception type (baselines, cross-validation, reports,
// network).
#pragma once

#include <stdexcept>
#include <string>

namespace deeptune::model {

/// Thrown by every function of the model module. what() is always one line: line breaks and other
/// control characters in the message are replaced by spaces.
class ModelError : public std::runtime_error {
 public:
  explicit ModelError(const std::string& message) : std::runtime_error(oneLine(message)) {}

 private:
  static std::string oneLine(std::string text) {
    for (char& c : text) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    }
    return text;
  }
};

}  // namespace deeptune::model
