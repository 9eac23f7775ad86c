// Test helpers for the reports' SVG and text: counting occurrences, checking tags are balanced.
#pragma once

#include <string>
#include <vector>

namespace deeptune::test {

inline size_t countOf(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

/// Checks that every element is closed in order (enough XML to catch a broken writer); returns
/// an empty string or what is wrong.
inline std::string xmlProblem(const std::string& text) {
  std::vector<std::string> open;
  for (size_t at = text.find('<'); at != std::string::npos; at = text.find('<', at + 1)) {
    const size_t end = text.find('>', at);
    if (end == std::string::npos) return "unterminated tag";
    const std::string tag = text.substr(at + 1, end - at - 1);
    if (tag.empty()) return "empty tag";
    if (tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1))
        return "unexpected </" + tag.substr(1) + ">";
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    if (tag.find('<') != std::string::npos) return "'<' inside a tag";
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

}  // namespace deeptune::test
