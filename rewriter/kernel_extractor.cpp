// Kernel extraction: finds one function's definition in formatted, normalized text.
#include <cctype>

#include "rewriter/internal/passes.hpp"

namespace deeptune::rewriter::internal {
namespace {

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Position just after the bracket matching the one at `open` ('(' or '{'), or npos.
size_t skipBalanced(std::string_view text, size_t open) {
  const char opening = text[open];
  const char closing = opening == '(' ? ')' : '}';
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {  // literals may hold brackets
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (text[i] == '\\') ++i;
      }
      continue;
    }
    if (c == opening) ++depth;
    if (c == closing && --depth == 0) return i + 1;
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<std::string> cutFunctionDefinition(std::string_view text, const std::string& name) {
  // Formatted text starts each top-level declaration at column 0; a definition is the name,
  // its parameter list, then '{'.
  size_t lineStart = 0;
  while (lineStart < text.size()) {
    const size_t lineEnd = std::min(text.find('\n', lineStart), text.size());
    const std::string_view line = text.substr(lineStart, lineEnd - lineStart);
    const bool topLevel = !line.empty() && !std::isspace(static_cast<unsigned char>(line[0]));
    for (size_t at = line.find(name); topLevel && at != std::string_view::npos;
         at = line.find(name, at + 1)) {
      const size_t after = at + name.size();
      if ((at > 0 && isIdentifierChar(line[at - 1])) || after >= line.size() ||
          line[after] != '(') {
        continue;
      }
      const size_t paramsEnd = skipBalanced(text, lineStart + after);
      if (paramsEnd == std::string_view::npos) break;
      size_t body = paramsEnd;
      while (body < text.size() && std::isspace(static_cast<unsigned char>(text[body]))) ++body;
      if (body >= text.size() || text[body] != '{') continue;
      const size_t end = skipBalanced(text, body);
      if (end == std::string_view::npos) break;
      return std::string(text.substr(lineStart, end - lineStart));
    }
    lineStart = lineEnd + 1;
  }
  return std::nullopt;
}

}  // namespace deeptune::rewriter::internal
