// RewriteError: the rewriter's one exception type, naming the file and position of the problem.
#pragma once

#include <stdexcept>
#include <string>

namespace deeptune::rewriter {

/// Thrown by every function of the rewriter. For input it cannot normalize (aboutInput()),
/// what() is one line: "FILE:LINE:COL: message". For a failure of the rewriter's own setup (its
/// precompiled shim header cannot be built or stored), what() is the message alone, file() is
/// empty and line() and column() are 0: not the input's fault (the CLI exits 1, not 2).
class RewriteError : public std::runtime_error {
 public:
  RewriteError(std::string file, int line, int column, std::string message)
      : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                           message),
        file_(std::move(file)),
        line_(line),
        column_(column),
        message_(std::move(message)),
        aboutInput_(true) {}
  /// A failure that is not about any input (see above).
  explicit RewriteError(std::string message)
      : std::runtime_error(message), line_(0), column_(0), message_(std::move(message)) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& message() const { return message_; }
  /// Whether the input is at fault (a located error), rather than the rewriter's own setup.
  bool aboutInput() const { return aboutInput_; }

 private:
  std::string file_;
  int line_;
  int column_;
  std::string message_;
  bool aboutInput_ = false;
};

}  // namespace deeptune::rewriter
