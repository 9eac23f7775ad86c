// The process's watcher thread: reaps the rewriter's worker children as they end, fork-safely.
#include "rewriter/internal/child_watcher.hpp"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <system_error>
#include <thread>
#include <vector>

namespace deeptune::rewriter::internal {
namespace {

/// Where the kernel has no pidfds, how often the watcher looks at the children it cannot poll.
constexpr int kCheckMilliseconds = 50;

struct Watched {
  pid_t pid;
  int pidfd;  ///< -1 where pidfd_open failed
  std::shared_ptr<ChildEnding> ending;
};

/// One process's watcher: its children, the eventfd that wakes its thread for a new one, and the
/// gate its thread holds between polls and every fork takes first.
struct Watcher {
  std::mutex gate;
  std::vector<Watched> children;
  int wake = -1;
  std::atomic<bool> started{false};
  Watcher* inheritedBefore = nullptr;  ///< the chain of watchers this process's forks copied
};

std::mutex creating;  ///< held while the watcher is created, and across every fork
std::atomic<Watcher*> current{nullptr};
Watcher* inherited = nullptr;  ///< the parents', copied by forks (no thread of them runs here)

int openPidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

/// Reaps every child that has ended (or that someone else reaped) and stops watching it.
void reapEnded(std::vector<Watched>& children) {
  for (auto child = children.begin(); child != children.end();) {
    siginfo_t info{};
    const int waited =
        waitid(P_PID, static_cast<id_t>(child->pid), &info, WEXITED | WNOHANG | WNOWAIT);
    const bool ended =
        (waited == 0 && info.si_pid == child->pid) || (waited < 0 && errno == ECHILD);
    if (!ended) {
      ++child;
      continue;
    }
    {
      const std::lock_guard<std::mutex> lock(child->ending->mutex);
      int status = 0;
      if (waitpid(child->pid, &status, WNOHANG) != child->pid) status = 0;
      child->ending->status = status;
      child->ending->done = true;
      child->ending->changed.notify_all();
    }
    if (child->pidfd >= 0) close(child->pidfd);
    child = children.erase(child);
  }
}

[[noreturn]] void watch(Watcher* watcher) {
  watcher->started = true;
  std::vector<pollfd> waiting;
  for (;;) {
    bool timed = false;
    {
      const std::lock_guard<std::mutex> lock(watcher->gate);
      uint64_t count = 0;
      while (read(watcher->wake, &count, sizeof count) > 0) {
      }
      reapEnded(watcher->children);
      waiting.assign(1, pollfd{watcher->wake, POLLIN, 0});
      for (const Watched& child : watcher->children) {
        if (child.pidfd >= 0) waiting.push_back(pollfd{child.pidfd, POLLIN, 0});
        timed = timed || child.pidfd < 0;
      }
    }
    poll(waiting.data(), waiting.size(), timed ? kCheckMilliseconds : -1);
  }
}

void beforeFork() {
  creating.lock();
  if (Watcher* watcher = current.load()) watcher->gate.lock();
}

void afterForkInParent() {
  if (Watcher* watcher = current.load()) watcher->gate.unlock();
  creating.unlock();
}

/// In the new process: the parent's watcher has no thread here; its descriptors are closed and the
/// first child this process starts creates its own.
void afterForkInChild() {
  if (Watcher* watcher = current.load()) {
    watcher->gate.unlock();
    for (const Watched& child : watcher->children) {
      if (child.pidfd >= 0) close(child.pidfd);
    }
    if (watcher->wake >= 0) close(watcher->wake);
    watcher->inheritedBefore = inherited;  // kept reachable: nothing is freed in a copy
    inherited = watcher;
    current = nullptr;
  }
  creating.unlock();
}

Watcher& watcherOfThisProcess() {
  const std::lock_guard<std::mutex> lock(creating);
  if (Watcher* watcher = current.load()) return *watcher;
  static const bool registered = [] {
    if (const int error = pthread_atfork(beforeFork, afterForkInParent, afterForkInChild)) {
      throw std::system_error(error, std::generic_category(), "pthread_atfork");
    }
    return true;
  }();
  (void)registered;
  auto watcher = std::make_unique<Watcher>();
  watcher->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (watcher->wake < 0) throw std::system_error(errno, std::generic_category(), "eventfd");
  try {
    std::thread(watch, watcher.get()).detach();
  } catch (...) {
    close(watcher->wake);
    throw;
  }
  // Forks wait (on `creating`) until the thread has started: its start-up allocates too.
  while (!watcher->started) std::this_thread::yield();
  current = watcher.release();
  return *current.load();
}

}  // namespace

void watchChild(pid_t pid, const std::shared_ptr<ChildEnding>& ending) {
  Watcher& watcher = watcherOfThisProcess();
  const int pidfd = openPidfd(pid);
  try {
    const std::lock_guard<std::mutex> lock(watcher.gate);
    watcher.children.push_back(Watched{pid, pidfd, ending});
  } catch (...) {
    if (pidfd >= 0) close(pidfd);
    throw;
  }
  const uint64_t one = 1;
  while (write(watcher.wake, &one, sizeof one) < 0 && errno == EINTR) {
  }
}

}  // namespace deeptune::rewriter::internal
