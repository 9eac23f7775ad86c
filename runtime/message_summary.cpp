// One line from a long message (a build log, an error text): its error lines, else all of it.
#include "runtime/message_summary.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace deeptune::runtime {
namespace {

bool containsError(const std::string& line) {
  std::string lower = line;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find("error") != std::string::npos;
}

}  // namespace

std::string summarizeMessage(const std::string& message, size_t maxBytes) {
  std::vector<std::string> errors, all;
  size_t start = 0;
  while (start < message.size()) {
    const size_t end = std::min(message.find('\n', start), message.size());
    std::string line = message.substr(start, end - start);
    start = end + 1;
    for (char& c : line) {
      if (c == '\r' || c == '\t') c = ' ';
    }
    const size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    line = line.substr(first, line.find_last_not_of(' ') - first + 1);
    if (containsError(line) && errors.size() < 3) errors.push_back(line);
    all.push_back(line);
  }
  const std::vector<std::string>& chosen = errors.empty() ? all : errors;
  std::string text;
  for (const std::string& line : chosen) {
    if (text.size() >= maxBytes) break;
    text += (text.empty() ? "" : " | ") + line;
  }
  if (text.size() > maxBytes) {
    size_t cut = maxBytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
    text = text.substr(0, cut) + "...";
  }
  return text;
}

}  // namespace deeptune::runtime
