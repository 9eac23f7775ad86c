// DataError: builds the one-line "FILE:LINE:COL: message" text of the data module's errors.
#include "data/data_error.hpp"

#include <cstdio>

namespace deeptune::data {
namespace {

/// Copies text, writing control characters as C-style escapes so the result is one line.
std::string escapeControls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", byte);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

std::string formatLocated(const std::string& file, int line, int column,
                          const std::string& message) {
  return escapeControls(file) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
         escapeControls(message);
}

}  // namespace

DataError::DataError(const std::string& file, int line, int column, const std::string& message)
    : std::runtime_error(formatLocated(file, line, column, message)),
      file_(file),
      line_(line),
      column_(column) {}

DataError::DataError(const std::string& message)
    : std::runtime_error(escapeControls(message)), line_(0), column_(0) {}

std::string quoteValue(std::string_view value, size_t maxBytes) {
  std::string_view shown = value;
  bool cut = false;
  if (shown.size() > maxBytes) {
    size_t end = maxBytes;
    // Back off to the start of a UTF-8 character (never split a multi-byte sequence).
    while (end > 0 && (static_cast<unsigned char>(shown[end]) & 0xC0) == 0x80) --end;
    shown = shown.substr(0, end);
    cut = true;
  }
  return "'" + escapeControls(shown) + (cut ? "...'" : "'");
}

}  // namespace deeptune::data
