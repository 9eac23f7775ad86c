// Kernel extraction: finds one function's definition in formatted, normalized text, and the
// file-level declarations it needs.
#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

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

/// Words (identifiers, numbers) and single punctuation characters of `text`, literals skipped.
std::vector<std::string_view> tokensOf(std::string_view text) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < text.size() && text[j] != c) j += text[j] == '\\' ? 2 : 1;
      i = std::min(j + 1, text.size());
    } else if (isIdentifierChar(c)) {
      size_t j = i;
      while (j < text.size() && isIdentifierChar(text[j])) ++j;
      out.push_back(text.substr(i, j - i));
      i = j;
    } else {
      out.push_back(text.substr(i++, 1));
    }
  }
  return out;
}

bool isIdentifier(std::string_view token) {
  return !token.empty() && (std::isalpha(static_cast<unsigned char>(token[0])) || token[0] == '_');
}

/// One file-level item of normalized text: a declaration up to its ';', or a function definition.
struct TopLevelItem {
  std::string_view text;
  bool function = false;  ///< a function definition or prototype: never copied into an extract
};

std::vector<TopLevelItem> topLevelItems(std::string_view text) {
  std::vector<TopLevelItem> items;
  size_t start = 0;
  int depth = 0;
  size_t firstBrace = std::string_view::npos;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (text[i] == '\\') ++i;
      }
      continue;
    }
    if (c == '{' && depth++ == 0 && firstBrace == std::string_view::npos) firstBrace = i;
    const bool closesBody = c == '}' && --depth == 0 && [&] {
      // A function body: its '{' follows the parameter list's ')'.
      size_t before = firstBrace;
      while (before > start && std::isspace(static_cast<unsigned char>(text[before - 1]))) {
        --before;
      }
      return before > start && text[before - 1] == ')';
    }();
    if (closesBody || (c == ';' && depth == 0)) {
      const std::string_view item = text.substr(start, i + 1 - start);
      const std::vector<std::string_view> tokens = tokensOf(item);
      const bool typedefItem = !tokens.empty() && tokens.front() == "typedef";
      bool prototype = false;  // `T f(...);`: a '(' at depth 0 before any '='
      for (const std::string_view token : tokens) {
        if (token == "=" || token == "{") break;
        if (token == "(") prototype = true;
      }
      items.push_back({item, closesBody || (prototype && !typedefItem)});
      start = i + 1;
      firstBrace = std::string_view::npos;
    }
  }
  return items;
}

/// The names a declaration introduces: a typedef's name; a struct, union or enum tag, its enum
/// constants and the variables declared after its body; a variable's names.
std::set<std::string_view> declaredNames(std::string_view item) {
  const std::vector<std::string_view> tokens = tokensOf(item);
  std::set<std::string_view> names;
  if (tokens.empty()) return names;
  if (tokens.front() == "typedef") {
    std::string_view last;
    for (const std::string_view token : tokens) {
      if (token == "[") break;
      if (isIdentifier(token)) last = token;
    }
    if (!last.empty()) names.insert(last);
    return names;
  }
  int braces = 0;
  int parens = 0;
  for (size_t k = 0; k < tokens.size(); ++k) {
    const std::string_view token = tokens[k];
    const std::string_view next = k + 1 < tokens.size() ? tokens[k + 1] : std::string_view();
    if (token == "{") ++braces;
    if (token == "}") --braces;
    if (token == "(") ++parens;
    if (token == ")") --parens;
    if (!isIdentifier(token) || parens != 0) continue;
    const bool tag =
        k > 0 && (tokens[k - 1] == "struct" || tokens[k - 1] == "union" || tokens[k - 1] == "enum");
    const bool enumConstant = braces == 1 && k > 0 &&
                              (tokens[k - 1] == "{" || tokens[k - 1] == ",") &&
                              (next == "," || next == "=" || next == "}");
    const bool declarator =
        braces == 0 && (next == "=" || next == "[" || next == ";" || next == ",");
    if (tag || enumConstant || declarator) names.insert(token);
  }
  return names;
}

}  // namespace

std::string neededDeclarations(std::string_view text, std::string_view definition) {
  std::set<std::string_view> used;
  for (const std::string_view token : tokensOf(definition)) {
    if (isIdentifier(token)) used.insert(token);
  }
  const std::vector<TopLevelItem> items = topLevelItems(text);
  std::vector<bool> needed(items.size(), false);
  for (bool grew = true; grew;) {  // declarations may need others (a typedef of a struct)
    grew = false;
    for (size_t i = 0; i < items.size(); ++i) {
      if (needed[i] || items[i].function) continue;
      const std::set<std::string_view> names = declaredNames(items[i].text);
      const bool uses = std::any_of(names.begin(), names.end(),
                                    [&](std::string_view name) { return used.count(name) != 0; });
      if (!uses) continue;
      needed[i] = grew = true;
      for (const std::string_view token : tokensOf(items[i].text)) {
        if (isIdentifier(token)) used.insert(token);
      }
    }
  }
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!needed[i]) continue;
    std::string_view item = items[i].text;
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front()))) {
      item.remove_prefix(1);
    }
    out.append(item);
    out.push_back('\n');
  }
  return out;
}

namespace {

/// Where the top-level declaration holding the line at `lineStart` begins: that line when it
/// starts at column 0, else the nearest line before it that does, when only blank or indented
/// lines lie between and that line does not end a declaration or open a body (a declaration the
/// formatter broke, e.g. `__kernel` and `void` left on lines of their own where a conditional
/// attribute was); npos otherwise.
size_t declarationStart(std::string_view text, size_t lineStart) {
  if (lineStart < text.size() && !std::isspace(static_cast<unsigned char>(text[lineStart]))) {
    return lineStart;
  }
  while (lineStart > 0) {
    const size_t previous = text.rfind('\n', lineStart - 2);
    const size_t start = previous == std::string_view::npos ? 0 : previous + 1;
    const std::string_view line = text.substr(start, lineStart - 1 - start);
    if (!line.empty() && !std::isspace(static_cast<unsigned char>(line[0]))) {
      const size_t last = line.find_last_not_of(" \t");
      const char end = line[last];
      return end == ';' || end == '}' || end == '{' ? std::string_view::npos : start;
    }
    lineStart = start;
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
    for (size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
      const size_t after = at + name.size();
      if ((at > 0 && isIdentifierChar(line[at - 1])) || after >= line.size() ||
          line[after] != '(') {
        continue;
      }
      const size_t start = declarationStart(text, lineStart);
      if (start == std::string_view::npos) continue;
      const size_t paramsEnd = skipBalanced(text, lineStart + after);
      if (paramsEnd == std::string_view::npos) break;
      size_t body = paramsEnd;
      while (body < text.size() && std::isspace(static_cast<unsigned char>(text[body]))) ++body;
      if (body >= text.size() || text[body] != '{') continue;
      const size_t end = skipBalanced(text, body);
      if (end == std::string_view::npos) break;
      return std::string(text.substr(start, end - start));
    }
    lineStart = lineEnd + 1;
  }
  return std::nullopt;
}

}  // namespace deeptune::rewriter::internal
