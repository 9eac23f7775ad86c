// The predictors' locks, all taken before os.fork() so a child never inherits one mid-call.
#include "python/bindings/fork_guard.hpp"

#include <mutex>
#include <new>
#include <set>

namespace deeptune::python {
namespace {

/// Every live guarded mutex. Changed with the GIL held (constructors and destructors of Python
/// objects), read by the hooks, which run with the GIL held too: the registry lock guards a
/// thread that drops the GIL in between.
struct Registry {
  std::mutex mutex;
  std::set<ForkGuardedMutex*> members;
  bool forking = false;
};

Registry& registry() {
  static Registry* instance = new Registry;  // never destroyed: hooks may run until exit
  return *instance;
}

/// Runs with the GIL held, and keeps it: a thread inside a call holds its object's lock without
/// the GIL and releases the lock before it takes the GIL back, so waiting here cannot deadlock,
/// and no object is made or destroyed meanwhile (that needs the GIL).
void beforeFork() {
  Registry& r = registry();
  r.mutex.lock();  // held across the fork; released by afterFork in both processes
  r.forking = true;
  for (ForkGuardedMutex* member : r.members) member->lock();
}

void afterForkInParent() {
  Registry& r = registry();
  if (!r.forking) return;  // os.fork() calls the after-hooks only after the before-hook ran
  for (ForkGuardedMutex* member : r.members) member->unlock();
  r.forking = false;
  r.mutex.unlock();
}

void afterForkInChild() {
  Registry& r = registry();
  if (!r.forking) return;
  for (ForkGuardedMutex* member : r.members) member->reset();
  r.forking = false;
  new (&r.mutex) std::mutex();  // the parent's thread held it: as new (no owner to check)
}

}  // namespace

ForkGuardedMutex::ForkGuardedMutex() {
  std::lock_guard<std::mutex> lock(registry().mutex);
  registry().members.insert(this);
}

ForkGuardedMutex::~ForkGuardedMutex() {
  std::lock_guard<std::mutex> lock(registry().mutex);
  registry().members.erase(this);
}

void ForkGuardedMutex::reset() { new (&mutex_) std::shared_mutex(); }

void bindForkGuard(py::module_& module) {
  module.def("_before_fork", &beforeFork, "os.register_at_fork's `before` hook (internal).");
  module.def("_after_fork_in_parent", &afterForkInParent, "os.register_at_fork hook (internal).");
  module.def("_after_fork_in_child", &afterForkInChild, "os.register_at_fork hook (internal).");
}

}  // namespace deeptune::python
