// RewriteError: the rewriter's one exception type, naming the file and position of the problem.
#pragma once

#include <stdexcept>
#include <string>

namespace deeptune::rewriter {

/// Thrown for input the rewriter cannot normalize. what() is one line: "FILE:LINE:COL: message".
class RewriteError : public std::runtime_error {
 public:
  RewriteError(std::string file, int line, int column, std::string message)
      : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                           message),
        file_(std::move(file)),
        line_(line),
        column_(column),
        message_(std::move(message)) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  int column_;
  std::string message_;
};

}  // namespace deeptune::rewriter
