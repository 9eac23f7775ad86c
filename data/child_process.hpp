// Child processes: a timed run with streamed stdout lines, a line coprocess, and the POSIX pieces
// every supervisor of a child needs (socket pair, whole writes, kill and reap).
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace deeptune::data {

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
/// child has ended. Throws DataError (no position) if it cannot be started; if onLine throws, the
/// child is killed and the exception passes on unchanged.
ChildExit runChild(const std::vector<std::string>& argv, double timeoutSeconds,
                   const std::function<void(const std::string& line)>& onLine);

/// A long-lived child that answers line requests: its stdin and stdout are one end of a socket
/// pair, its stderr is this process's. Started with posix_spawn (safe after OpenCL is
/// initialized: no fork of this process runs code). Not thread-safe. Every failure is a DataError
/// with no position.
class Coprocess {
 public:
  /// Spawns argv (argv[0] is a path). Throws DataError if it cannot be started.
  explicit Coprocess(const std::vector<std::string>& argv);
  /// Closes the child's input, gives it a moment to exit, then kills it. In a process forked
  /// from the one that started it, only closes this process's copy of the socket.
  ~Coprocess();
  Coprocess(const Coprocess&) = delete;
  Coprocess& operator=(const Coprocess&) = delete;

  /// Sends one line (a '\n' is appended). Throws DataError if the child is gone.
  void writeLine(const std::string& line);
  /// The next line the child writes, without '\n'; nullopt when it closed its output (ended).
  /// Throws DataError when `timeoutSeconds` pass without a complete line.
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

// The low-level pieces, shared by runChild/Coprocess and by other supervisors of a child (the
// rewriter's BoundedWorker). They throw nothing, allocate nothing and take no lock, so a child
// forked from a multithreaded process may call them too.

/// Makes a connected AF_UNIX stream socket pair, both ends close-on-exec, into `ends`. Returns 0,
/// or the errno value when it cannot be made (`ends` is then untouched).
int makeSocketPair(int (&ends)[2]);

/// Sends all of `bytes` on the socket `socket` (MSG_NOSIGNAL: a peer that is gone is an error,
/// not a SIGPIPE), retrying after EINTR. Returns false, with errno saying why, when the peer is
/// gone or the socket fails; part of `bytes` may then have been sent.
bool sendAll(int socket, std::string_view bytes);

/// SIGKILL to the child `pid` (and first to its process group when `wholeGroup`: a child started
/// in a group of its own, with its descendants), then waits for it (waitpid, retried after EINTR)
/// so that it leaves no zombie. Returns its wait status (0 when it could not be waited for: not
/// this process's child, or reaped by someone else). Only for a child not yet reaped: a pid that
/// was waited for may already belong to another process.
int killAndReap(pid_t pid, bool wholeGroup);

}  // namespace deeptune::data
