// Stage 7 of the normalizer: the text before the first '{' (the prototype) on one line.
#include <cctype>

#include "rewriter/normalizer.hpp"

namespace deeptune::rewriter {

std::string prototypeOnOneLine(std::string_view source) {
  size_t position = 0;
  while (position < source.size() && std::isspace(static_cast<unsigned char>(source[position]))) {
    ++position;
  }
  const size_t brace = source.find('{', position);
  const size_t prototypeEnd = brace == std::string_view::npos ? source.size() : brace + 1;
  std::string output;
  output.reserve(source.size());
  bool inSpace = false;
  for (; position < prototypeEnd; ++position) {
    if (std::isspace(static_cast<unsigned char>(source[position]))) {
      inSpace = true;
      continue;
    }
    if (inSpace) output.push_back(' ');
    inSpace = false;
    output.push_back(source[position]);
  }
  output.append(source.substr(prototypeEnd));
  return output;
}

}  // namespace deeptune::rewriter
