// Child processes: one run with a timeout (streamed stdout lines), or a coprocess to talk to.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <functional>
#include <optional>
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

/// A long-lived child that answers line requests: its stdin and stdout are one end of a socket
/// pair, its stderr is this process's. Started with posix_spawn (safe after OpenCL is
/// initialized: no fork of this process runs code). Not thread-safe.
class Coprocess {
 public:
  /// Spawns argv (argv[0] is a path). Throws RuntimeError if it cannot be started.
  explicit Coprocess(const std::vector<std::string>& argv);
  /// Closes the child's input, gives it a moment to exit, then kills it. In a process forked
  /// from the one that started it, only closes this process's copy of the socket.
  ~Coprocess();
  Coprocess(const Coprocess&) = delete;
  Coprocess& operator=(const Coprocess&) = delete;

  /// Sends one line (a '\n' is appended). Throws RuntimeError if the child is gone.
  void writeLine(const std::string& line);
  /// The next line the child writes, without '\n'; nullopt when it closed its output (ended).
  /// Throws RuntimeError when `timeoutSeconds` pass without a complete line.
  std::optional<std::string> readLine(double timeoutSeconds);
  /// Whether this process started the child (false in a process forked since, which must not
  /// write to it or read its answers).
  bool ownedByThisProcess() const { return owner_ == ::getpid(); }

 private:
  int socket_ = -1;
  pid_t pid_ = -1;
  pid_t owner_ = -1;
  std::string pending_;
};

}  // namespace deeptune::runtime
