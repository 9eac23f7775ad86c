// DataError: the data module's one exception type, with a "FILE:LINE:COL: message" text.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace deeptune::data {

/// Thrown by every function of this module. what() is always one line: `FILE:LINE:COL: message`
/// (line and column 1-based, column counted in bytes), or the message alone for an error with no
/// position (a value such as a build option, data already read); control characters in the file
/// name or message are escaped so the text stays on one line.
class DataError : public std::runtime_error {
 public:
  DataError(const std::string& file, int line, int column, const std::string& message);
  /// An error with no position (a value, data already read): what() is `message`, escaped to
  /// one line; file() is empty and line() and column() are 0.
  explicit DataError(const std::string& message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  std::string file_;
  int line_;
  int column_;
};

/// A value quoted for an error message: 'text', cut to about maxBytes bytes (at a UTF-8 character
/// boundary, "..." appended) with newlines and other control characters escaped.
std::string quoteValue(std::string_view value, size_t maxBytes = 40);

}  // namespace deeptune::data
