// Test helpers on normalized text: identifiers, declared names that survived, `typedef T T;`.
#pragma once

#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rewriter/normalizer.hpp"

namespace deeptune::test {

/// Identifiers of `text` that are not member names (after '.' or "->").
inline std::set<std::string> identifiersOutsideMembers(const std::string& text) {
  std::set<std::string> found;
  for (size_t i = 0; i < text.size();) {
    if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') {
      size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) {
        ++j;
      }
      const bool member =
          (i > 0 && text[i - 1] == '.') || (i > 1 && text.compare(i - 2, 2, "->") == 0);
      if (!member) found.insert(text.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  return found;
}

/// Declared names (notes.renames) still spelled as in the input in `output`: an old name that
/// is not also one of the new names.
inline std::vector<std::string> survivingDeclaredNames(const std::string& output,
                                                       const rewriter::RewriteNotes& notes) {
  std::set<std::string> newNames;
  for (const auto& [before, after] : notes.renames) newNames.insert(after);
  const std::set<std::string> ids = identifiersOutsideMembers(output);
  std::vector<std::string> survivors;
  for (const auto& [before, after] : notes.renames) {
    if (before != after && ids.count(before) != 0 && newNames.count(before) == 0) {
      survivors.push_back(before);
    }
  }
  return survivors;
}

/// Whether `text` holds a `typedef T T;` (the same words on both sides).
inline bool hasSelfTypedef(const std::string& text) {
  for (size_t at = text.find("typedef"); at != std::string::npos;
       at = text.find("typedef", at + 7)) {
    const size_t end = text.find(';', at);
    if (end == std::string::npos) break;
    std::istringstream in(text.substr(at + 7, end - at - 7));
    std::vector<std::string> words;
    for (std::string word; in >> word;) words.push_back(word);
    const size_t half = words.size() / 2;
    if (!words.empty() && words.size() % 2 == 0 &&
        std::vector<std::string>(words.begin(), words.begin() + half) ==
            std::vector<std::string>(words.begin() + half, words.end())) {
      return true;
    }
  }
  return false;
}

}  // namespace deeptune::test
