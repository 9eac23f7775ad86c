// The tokenizer module's exception: bad vocabulary files, non-text input, unknown characters.
#pragma once

#include <stdexcept>

namespace deeptune::tokenizer {

/// Thrown by every tokenizer function on bad input. The message is one line that names the file
/// (or source name) and, where there is one, the position (`name:line:col`) and what was expected.
class VocabError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace deeptune::tokenizer
