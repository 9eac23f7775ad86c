// Progress lines on stderr: a live line on a terminal, one plain line per step otherwise.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

namespace deeptune::data {

/// Thread-safe progress printer. On a terminal each update rewrites one line; otherwise (a log
/// file of a background run) every update is its own line.
class ProgressPrinter {
 public:
  ProgressPrinter();
  ~ProgressPrinter();
  /// Prints `message`; `final` ends a live line (a step that is done).
  void update(const std::string& message, bool final = false);
  /// Seconds since construction.
  double elapsed() const;

 private:
  std::mutex mutex_;
  bool terminal_;
  bool liveLineOpen_ = false;
  std::chrono::steady_clock::time_point started_;
};

/// "[J/N] ELAPSED, ETA T" after step `index` (from 0) of `count`, `elapsed` seconds in.
std::string stepProgress(size_t index, size_t count, double elapsed);

}  // namespace deeptune::data
