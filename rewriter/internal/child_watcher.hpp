// Internal: one thread per process that reaps the rewriter's worker children as they end.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <memory>
#include <mutex>

namespace deeptune::rewriter::internal {

/// How a watched child ended: set once, under `mutex`, by the thread that reaps it.
struct ChildEnding {
  std::mutex mutex;
  std::condition_variable changed;
  bool done = false;
  int status = 0;  ///< waitpid's status; 0 when someone else reaped the child
};

/// Watches `pid`, a child of this process, from now on: when it ends, the process's watcher
/// thread reaps it at once under `ending->mutex` (so that its pid is never signalled under that
/// mutex once it may belong to another process), whatever the application's SIGCHLD disposition.
/// Throws std::system_error when the watcher thread cannot be started.
///
/// One thread watches every child of the process (pidfds in one poll, or a 50 ms check where the
/// kernel has no pidfd); it never exits, and all it does between polls it does holding a gate that
/// every fork of the process takes first (pthread_atfork). So no fork, the application's or a
/// worker's, copies this thread's allocator state half-changed: with a sanitizer's allocator,
/// whose locks fork does not take, a child forked while another thread held one waited forever.
void watchChild(pid_t pid, const std::shared_ptr<ChildEnding>& ending);

}  // namespace deeptune::rewriter::internal
