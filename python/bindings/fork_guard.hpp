// The predictors' locks, all taken before os.fork() so a child never inherits one mid-call.
#pragma once

#include <mutex>

#include "python/bindings/bindings.hpp"

namespace deeptune::python {

/// A mutex that os.fork() takes before forking and both processes release after it (Python's
/// os.register_at_fork, installed by the package's __init__.py): a call another thread is inside
/// finishes first, so the child gets the object whole and its lock free. Only os.fork() (and
/// multiprocessing's fork) runs those hooks, not the rewriter's own fork of its worker.
class ForkGuardedMutex {
 public:
  ForkGuardedMutex();
  ~ForkGuardedMutex();
  ForkGuardedMutex(const ForkGuardedMutex&) = delete;
  ForkGuardedMutex& operator=(const ForkGuardedMutex&) = delete;

  void lock() { mutex_.lock(); }
  void unlock() { mutex_.unlock(); }

 private:
  std::mutex mutex_;
};

/// Registers _before_fork and _after_fork, the hooks __init__.py hands to os.register_at_fork.
void bindForkGuard(py::module_& module);

}  // namespace deeptune::python
