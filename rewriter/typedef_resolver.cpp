// Typedefs of names the shim defines: the file's own type wins, and no `typedef T T;` is left.
#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rewriter/internal/passes.hpp"

namespace deeptune::rewriter {
extern const char* const kOpenClShimText;  // rewriter/shim/opencl_shim.h, embedded at build time
}

namespace deeptune::rewriter::internal {
namespace {

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The words and single punctuation characters of `text` (whitespace dropped).
std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else if (isWordChar(text[i])) {
      size_t j = i;
      while (j < text.size() && isWordChar(text[j])) ++j;
      out.emplace_back(text.substr(i, j - i));
      i = j;
    } else {
      out.emplace_back(1, text[i++]);
    }
  }
  return out;
}

/// Names the shim defines as object-like macros (`#define NAME ...`).
const std::set<std::string>& shimMacroNames() {
  static const std::set<std::string> names = [] {
    std::set<std::string> found;
    const std::string_view shim(kOpenClShimText);
    size_t start = 0;
    while (start < shim.size()) {
      size_t end = shim.find('\n', start);
      if (end == std::string_view::npos) end = shim.size();
      const std::vector<std::string> line = words(shim.substr(start, end - start));
      if (line.size() >= 3 && line[0] == "#" && line[1] == "define" &&
          (line.size() < 4 || line[3] != "(")) {
        found.insert(line[2]);
      }
      start = end + 1;
    }
    return found;
  }();
  return names;
}

/// Each `typedef ... NAME;` statement of `text` (no braces, parentheses or commas in it): the
/// words between `typedef` and `;`, and where the statement starts and ends.
struct TypedefStatement {
  size_t begin = 0;
  size_t end = 0;  ///< one past the ';'
  std::vector<std::string> words;
};

std::vector<TypedefStatement> simpleTypedefs(std::string_view text) {
  std::vector<TypedefStatement> found;
  for (size_t at = text.find("typedef"); at != std::string_view::npos;
       at = text.find("typedef", at + 7)) {
    if ((at > 0 && isWordChar(text[at - 1])) ||
        (at + 7 < text.size() && isWordChar(text[at + 7]))) {
      continue;
    }
    const size_t semicolon = text.find(';', at);
    if (semicolon == std::string_view::npos) break;
    const std::string_view body = text.substr(at + 7, semicolon - at - 7);
    if (body.find_first_of("{}(),[]#") != std::string_view::npos) continue;
    found.push_back({at, semicolon + 1, words(body)});
  }
  return found;
}

}  // namespace

std::vector<std::string> typedefOverrides(std::string_view source) {
  std::vector<std::string> defines;
  for (const TypedefStatement& statement : simpleTypedefs(source)) {
    if (statement.words.size() < 2) continue;
    const std::string& name = statement.words.back();
    if (shimMacroNames().count(name) == 0) continue;
    std::string type;
    for (size_t i = 0; i + 1 < statement.words.size(); ++i) {
      const std::string& word = statement.words[i];
      const bool glue = type.empty() || word == "*" || type.back() == '*';
      type += (glue ? "" : " ") + word;
    }
    defines.push_back(name + "=" + type);
  }
  return defines;
}

std::string dropSelfTypedefs(std::string text) {
  const std::vector<TypedefStatement> statements = simpleTypedefs(text);
  for (auto it = statements.rbegin(); it != statements.rend(); ++it) {
    const std::vector<std::string>& w = it->words;
    const size_t half = w.size() / 2;
    if (w.empty() || w.size() % 2 != 0 ||
        !std::equal(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(half),
                    w.begin() + static_cast<std::ptrdiff_t>(half))) {
      continue;
    }
    // Blank it, newlines kept: later passes map lines to the input.
    for (size_t i = it->begin; i < it->end; ++i) {
      if (text[i] != '\n') text[i] = ' ';
    }
  }
  return text;
}

}  // namespace deeptune::rewriter::internal
