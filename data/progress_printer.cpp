// Progress lines on stderr: a live line on a terminal, one plain line per step otherwise.
#include "data/progress_printer.hpp"

#include <unistd.h>

#include <iostream>

#include "data/duration_text.hpp"

namespace deeptune::data {

ProgressPrinter::ProgressPrinter()
    : terminal_(::isatty(STDERR_FILENO) != 0), started_(std::chrono::steady_clock::now()) {}

ProgressPrinter::~ProgressPrinter() {
  if (liveLineOpen_) std::cerr << "\n";
}

void ProgressPrinter::update(const std::string& message, bool final) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (terminal_) {
    std::cerr << "\r\033[K" << message << (final ? "\n" : "") << std::flush;
    liveLineOpen_ = !final;
  } else {
    std::cerr << message << "\n" << std::flush;
  }
}

double ProgressPrinter::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::string stepProgress(size_t index, size_t count, double elapsed) {
  const double eta =
      elapsed / static_cast<double>(index + 1) * static_cast<double>(count - index - 1);
  return "[" + std::to_string(index + 1) + "/" + std::to_string(count) + "] " +
         formatDuration(elapsed) + ", ETA " + formatDuration(eta);
}

}  // namespace deeptune::data
