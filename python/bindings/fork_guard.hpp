// The predictors' locks, all taken before os.fork() so a child never inherits one mid-call.
#pragma once

#include <shared_mutex>

#include "python/bindings/bindings.hpp"

namespace deeptune::python {

/// A lock that os.fork() takes before forking and both processes release after it (Python's
/// os.register_at_fork, installed by the package's __init__.py): a call another thread is inside
/// finishes first, so the child gets the object whole and its lock free. Only os.fork() (and
/// multiprocessing's fork) runs those hooks, not the rewriter's own fork of its worker.
class ForkGuardedMutex {
 public:
  ForkGuardedMutex();
  ~ForkGuardedMutex();
  ForkGuardedMutex(const ForkGuardedMutex&) = delete;
  ForkGuardedMutex& operator=(const ForkGuardedMutex&) = delete;

  /// One call at a time (a predictor), or:
  void lock() { mutex_.lock(); }
  void unlock() { mutex_.unlock(); }
  /// calls side by side (the advisor is thread-safe itself); the fork waits for them all.
  void lock_shared() { mutex_.lock_shared(); }
  void unlock_shared() { mutex_.unlock_shared(); }
  /// In a forked child: the lock as new. (The parent's forking thread took it; unlocking it
  /// here would not do, since a read-write lock knows its writer by a thread id the child's
  /// thread does not have.)
  void reset();

 private:
  std::shared_mutex mutex_;
};

/// Registers _before_fork, _after_fork_in_parent and _after_fork_in_child, the hooks
/// __init__.py hands to os.register_at_fork.
void bindForkGuard(py::module_& module);

}  // namespace deeptune::python
