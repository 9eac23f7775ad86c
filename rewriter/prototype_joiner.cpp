// Stage 7 of the normalizer: the prototype before the first '{' on one line.
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
  // Declarations before the one that owns the first '{' (a whole file's typedefs, an extract's
  // needed declarations) keep their own lines: only the prototype is joined.
  const size_t previous = source.substr(0, prototypeEnd).find_last_of(";}");
  if (previous != std::string_view::npos && previous >= position) {
    size_t start = previous + 1;
    while (start < prototypeEnd && std::isspace(static_cast<unsigned char>(source[start]))) {
      ++start;
    }
    output.append(source.substr(position, start - position));
    position = start;
  }
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
