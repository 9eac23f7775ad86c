// Stage 4 of the normalizer: removes `__attribute__((...))` specifiers with balanced parentheses.
#include <cctype>

#include "rewriter/normalizer.hpp"

namespace deeptune::rewriter {
namespace {

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Skips a string or character literal starting at `position` (the opening quote).
size_t skipLiteral(std::string_view text, size_t position) {
  const char quote = text[position++];
  while (position < text.size() && text[position] != quote && text[position] != '\n') {
    position += text[position] == '\\' ? 2 : 1;
  }
  return position + 1;
}

}  // namespace

std::string stripAttributes(std::string_view source) {
  static constexpr std::string_view kKeyword = "__attribute__";
  std::string output;
  output.reserve(source.size());
  size_t position = 0;
  while (position < source.size()) {
    const char c = source[position];
    if (c == '"' || c == '\'') {
      const size_t end = std::min(skipLiteral(source, position), source.size());
      output.append(source.substr(position, end - position));
      position = end;
      continue;
    }
    const bool atWord = position == 0 || !isIdentifierChar(source[position - 1]);
    if (atWord && source.substr(position, kKeyword.size()) == kKeyword &&
        (position + kKeyword.size() == source.size() ||
         !isIdentifierChar(source[position + kKeyword.size()]))) {
      size_t cursor = position + kKeyword.size();
      while (cursor < source.size() && std::isspace(static_cast<unsigned char>(source[cursor]))) {
        ++cursor;
      }
      if (cursor < source.size() && source[cursor] == '(') {
        int depth = 0;
        for (; cursor < source.size(); ++cursor) {
          if (source[cursor] == '(') ++depth;
          if (source[cursor] == ')' && --depth == 0) break;
        }
        if (depth == 0) {
          position = cursor + 1;
          continue;
        }
      }
    }
    output.push_back(c);
    ++position;
  }
  return output;
}

}  // namespace deeptune::rewriter
