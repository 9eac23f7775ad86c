// Internal: a forked child that runs normalizations one at a time, each bounded in memory and CPU.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace deeptune::rewriter::internal {

struct ChildEnding;

/// What one normalization may use beyond the calling process: clang-format's line-breaking search
/// and Clang's AST grow superlinearly on some shapes (a call with thousands of arguments, long
/// chains of ?:), far past any kernel's needs (the paper's largest takes ~0.2 GiB and ~1 s).
constexpr std::size_t kWorkAddressSpaceBytes = std::size_t{640} << 20;
constexpr int kWorkCpuSeconds = 6;
/// How often a request's wall alarm looks whether the worker is blocked (see BoundedWorker).
constexpr int kWorkWallSeconds = 60;
/// A worker with no request for this long exits; the next request forks a new one.
constexpr int kWorkerIdleMilliseconds = 2000;

/// A child process, forked from the caller on the first request, that serves requests one at a
/// time with `serve` (which runs in the child, on the caller's state as it was at the fork). Each
/// request may use kWorkCpuSeconds of CPU time and the child kWorkAddressSpaceBytes more address
/// space than the caller had. The child writes nothing to the caller's standard streams, holds
/// none of its pipes and sockets, runs none of its signal or exit handlers, and exits when idle for
/// kWorkerIdleMilliseconds, when its address space grew, or when the caller goes away.
///
/// A RewriteError `serve` throws is thrown again by run(), unchanged; any other exception becomes
/// a RewriteError at `fileName`:1:1. A child stopped by a bound or killed by a signal is a
/// RewriteError at `fileName`:`line`:`column` saying which bound the input exceeded (or that the
/// normalizer crashed); the next request forks a new child. Thread-safe: requests are serialized.
///
/// The child belongs to the process that started it: in a process forked from the caller, the
/// first request starts that process's own child (the inherited one is never written to, read
/// from, signalled or waited for there). The starting process's watcher thread (child_watcher.hpp)
/// waits for the child from its start, so a child that ends by itself is reaped at once, whatever
/// the application's SIGCHLD disposition; the child holds no descriptor of the caller's but its
/// standard streams (on /dev/null) and its request socket.
class BoundedWorker {
 public:
  using Serve = std::function<std::string(const std::string& request)>;
  /// `warmUp` runs in a child that prestart() started, before it serves its first request (its
  /// exceptions are ignored): Clang's first parse in a process pays for touching its code and
  /// tables, and that is better paid while the caller does other work. A request during which the
  /// child used almost no CPU time for `wallSeconds` (blocked: a read that never returns) ends it.
  explicit BoundedWorker(Serve serve, std::function<void()> warmUp = {},
                         int wallSeconds = kWorkWallSeconds);
  ~BoundedWorker();
  BoundedWorker(const BoundedWorker&) = delete;
  BoundedWorker& operator=(const BoundedWorker&) = delete;

  std::string run(const std::string& request, const std::string& fileName, int line, int column);
  /// Starts a child now, unless one is running, which warms up while the caller goes on; a child
  /// that cannot be started is left to the next request to report.
  void prestart();

  /// The current child's process id, or -1 when none is running (for tests).
  pid_t childForTests() const { return pid_; }

 private:
  void start(const std::string& fileName, bool warm = false);
  /// Sends the request and reads the answer frame; false when the child went away without one.
  bool exchange(const std::string& request, std::string& answer);
  /// Waits for the child, which has ended or is ending, and returns how it ended.
  int reap();
  /// Drops the (reaped, or another process's) child: its socket closed, none started.
  void forget();
  /// Drops a child that is another process's (this one was forked) or that has ended.
  void dropStaleChild();
  /// Whether the child has ended (and was reaped).
  bool ended() const;
  /// Kills the child unless it has already ended.
  void killChild();

  Serve serve_;
  std::function<void()> warmUp_;
  int wallSeconds_;
  std::mutex mutex_;
  pid_t pid_ = -1;
  pid_t owner_ = -1;  ///< the process that started the child
  int socket_ = -1;
  std::shared_ptr<ChildEnding> ending_;  ///< set by the process's watcher thread
};

/// Length-prefixed fields for requests and answers.
void putField(std::string& out, const std::string& field);
/// Reads the next field at `offset` (advanced past it); throws RewriteError (not about an input)
/// when truncated.
std::string takeField(const std::string& in, std::size_t& offset);

}  // namespace deeptune::rewriter::internal
