// OneLineError: the base of the modules' exception types whose text is one line.
#pragma once

#include <stdexcept>
#include <string>

namespace deeptune::data {

/// what() is always one line: line breaks and other control characters in the message are
/// replaced by spaces.
class OneLineError : public std::runtime_error {
 public:
  explicit OneLineError(const std::string& message) : std::runtime_error(oneLine(message)) {}

 private:
  static std::string oneLine(std::string text) {
    for (char& c : text) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    }
    return text;
  }
};

}  // namespace deeptune::data
