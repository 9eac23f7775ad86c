// Runs a child process in its own process group, streams its stdout lines, kills it on a timeout.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace deeptune::runtime {

/// How a child process ended.
struct ChildExit {
  enum class Kind { kExited, kSignaled, kTimedOut };
  Kind kind = Kind::kExited;
  int code = 0;            ///< exit status (kExited) or signal number (kSignaled)
  std::string stderrTail;  ///< the last few KB of what the child wrote to stderr

  /// "exit code 3", "Segmentation fault (signal 11)", "no result within 10 s".
  std::string describe(double timeoutSeconds) const;
};

/// Spawns argv (argv[0] is a path, not searched in PATH) with stdin from /dev/null, in a new
/// process group, and calls onLine for every line it writes to stdout (without the '\n') as soon as
/// the line is complete. The child is killed (SIGKILL to its whole process group) when
/// timeoutSeconds pass without a new stdout line: each line restarts the clock. Returns when the
/// child has ended. Throws RuntimeError if it cannot be started; if onLine throws, the child is
/// killed and the exception passes on.
ChildExit runChild(const std::vector<std::string>& argv, double timeoutSeconds,
                   const std::function<void(const std::string& line)>& onLine);

}  // namespace deeptune::runtime
