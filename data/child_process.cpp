// Child processes: posix_spawn into a new process group; a timed run polling stdout and stderr,
// a coprocess spoken to over a socket pair; socket pairs, whole sends, kill and reap.
#include "data/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>
#include <utility>

#include "data/data_error.hpp"

extern char** environ;

namespace deeptune::data {

namespace {

constexpr size_t kStderrTail = 4096;

using Clock = std::chrono::steady_clock;

/// Closes a file descriptor on scope exit (never throws).
struct Fd {
  int fd = -1;
  ~Fd() { close(); }
  void close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

/// Kills and reaps the child (and its group) unless released (when onLine throws, or on any
/// early exit).
struct ChildGuard {
  pid_t pid = -1;
  ~ChildGuard() {
    if (pid > 0) killAndReap(pid, true);
  }
};

std::string formatSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

/// posix_spawn of argv in a new process group with default signal handling; returns its error.
int spawnInGroup(const std::vector<std::string>& argv, const posix_spawn_file_actions_t& actions,
                 pid_t& pid) {
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD}) sigaddset(&defaults, sig);
  sigset_t noMask;
  sigemptyset(&noMask);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &noMask);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const int spawned =
      ::posix_spawn(&pid, argv[0].c_str(), &actions, &attributes, args.data(), environ);
  posix_spawnattr_destroy(&attributes);
  return spawned;
}

}  // namespace

std::string ChildExit::describe(double timeoutSeconds) const {
  switch (kind) {
    case Kind::kTimedOut:
      return "no result within " + formatSeconds(timeoutSeconds) + " s; killed";
    case Kind::kSignaled: {
      const char* name = ::strsignal(code);
      return std::string(name != nullptr ? name : "signal") + " (signal " + std::to_string(code) +
             ")";
    }
    case Kind::kExited:
      break;
  }
  return "exit code " + std::to_string(code);
}

ChildExit runChild(const std::vector<std::string>& argv, double timeoutSeconds,
                   const std::function<void(const std::string& line)>& onLine) {
  if (argv.empty()) throw DataError("runChild: empty command");
  int outPipe[2];
  int errPipe[2];
  if (::pipe2(outPipe, O_CLOEXEC) != 0)
    throw DataError(std::string("pipe: ") + std::strerror(errno));
  Fd outRead{outPipe[0]}, outWrite{outPipe[1]};
  if (::pipe2(errPipe, O_CLOEXEC) != 0)
    throw DataError(std::string("pipe: ") + std::strerror(errno));
  Fd errRead{errPipe[0]}, errWrite{errPipe[1]};

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, outWrite.fd, 1);
  posix_spawn_file_actions_adddup2(&actions, errWrite.fd, 2);
  pid_t pid = -1;
  const int spawned = spawnInGroup(argv, actions, pid);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    throw DataError("cannot start " + argv[0] + ": " + std::strerror(spawned));
  }
  ChildGuard guard{pid};
  outWrite.close();
  errWrite.close();

  const auto budget = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(std::max(0.0, timeoutSeconds)));
  auto deadline = Clock::now() + budget;
  std::string pending;
  std::string errTail;
  char chunk[65536];
  ChildExit result;
  bool timedOut = false;
  while (outRead.fd >= 0 || errRead.fd >= 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      timedOut = true;
      break;
    }
    pollfd fds[2];
    int count = 0;
    if (outRead.fd >= 0) fds[count++] = {outRead.fd, POLLIN, 0};
    if (errRead.fd >= 0) fds[count++] = {errRead.fd, POLLIN, 0};
    const int ready = ::poll(fds, count, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) throw DataError(std::string("poll: ") + std::strerror(errno));
    for (int i = 0; i < count && ready > 0; ++i) {
      if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = ::read(fds[i].fd, chunk, sizeof chunk);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      const bool isOut = fds[i].fd == outRead.fd;
      if (n <= 0) {
        (isOut ? outRead : errRead).close();
        continue;
      }
      if (!isOut) {
        errTail.append(chunk, static_cast<size_t>(n));
        if (errTail.size() > 2 * kStderrTail) errTail.erase(0, errTail.size() - kStderrTail);
        continue;
      }
      pending.append(chunk, static_cast<size_t>(n));
      size_t start = 0;
      for (size_t end; (end = pending.find('\n', start)) != std::string::npos; start = end + 1) {
        onLine(pending.substr(start, end - start));
        deadline = Clock::now() + budget;
      }
      pending.erase(0, start);
    }
  }
  // Both pipes closed (or time is up): wait for the exit, still bounded by the deadline.
  int status = 0;
  while (!timedOut) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR)
      throw DataError(std::string("waitpid: ") + std::strerror(errno));
    if (Clock::now() >= deadline) {
      timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (timedOut) {
    killAndReap(pid, true);
    result.kind = ChildExit::Kind::kTimedOut;
  } else if (WIFSIGNALED(status)) {
    result.kind = ChildExit::Kind::kSignaled;
    result.code = WTERMSIG(status);
  } else {
    result.kind = ChildExit::Kind::kExited;
    result.code = WEXITSTATUS(status);
  }
  guard.pid = -1;
  if (errTail.size() > kStderrTail) errTail.erase(0, errTail.size() - kStderrTail);
  result.stderrTail = std::move(errTail);
  return result;
}

Coprocess::Coprocess(const std::vector<std::string>& argv) {
  if (argv.empty()) throw DataError("Coprocess: empty command");
  int ends[2];
  if (const int error = makeSocketPair(ends); error != 0) {
    throw DataError(std::string("socketpair: ") + std::strerror(error));
  }
  Fd mine{ends[0]}, theirs{ends[1]};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, theirs.fd, 0);
  posix_spawn_file_actions_adddup2(&actions, theirs.fd, 1);
  const int spawned = spawnInGroup(argv, actions, pid_);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    throw DataError("cannot start " + argv[0] + ": " + std::strerror(spawned));
  }
  socket_ = std::exchange(mine.fd, -1);
  owner_ = ::getpid();
}

Coprocess::~Coprocess() {
  if (!ownedByThisProcess()) {  // a forked copy: the child and its socket are the parent's
    if (socket_ >= 0) ::close(socket_);
    return;
  }
  if (socket_ >= 0) {
    ::shutdown(socket_, SHUT_WR);  // the child sees the end of its input and exits
    ::close(socket_);
  }
  if (pid_ <= 0) return;
  int status = 0;
  for (int waited = 0; waited < 100; ++waited) {  // up to 0.5 s
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  killAndReap(pid_, true);
}

void Coprocess::writeLine(const std::string& line) {
  if (!sendAll(socket_, line + '\n')) {
    throw DataError(std::string("child process is gone: ") + std::strerror(errno));
  }
}

std::optional<std::string> Coprocess::readLine(double timeoutSeconds) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeoutSeconds));
  char chunk[65536];
  while (true) {
    const size_t end = pending_.find('\n');
    if (end != std::string::npos) {
      std::string line = pending_.substr(0, end);
      pending_.erase(0, end + 1);
      return line;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      throw DataError("child process gave no answer within " + formatSeconds(timeoutSeconds) +
                      " s");
    }
    pollfd fd{socket_, POLLIN, 0};
    const int ready = ::poll(&fd, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) throw DataError(std::string("poll: ") + std::strerror(errno));
    if (ready <= 0) continue;
    const ssize_t n = ::recv(socket_, chunk, sizeof chunk, 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return std::nullopt;
    pending_.append(chunk, static_cast<size_t>(n));
  }
}

int makeSocketPair(int (&ends)[2]) {
  int made[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, made) != 0) return errno;
  ends[0] = made[0];
  ends[1] = made[1];
  return 0;
}

bool sendAll(int socket, std::string_view bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(socket, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {  // not for a stream socket and a non-empty buffer; never loop on it
      errno = EPIPE;
      return false;
    }
    sent += static_cast<size_t>(n);
  }
  return true;
}

int killAndReap(pid_t pid, bool wholeGroup) {
  if (wholeGroup) ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 0;
  }
  return status;
}

}  // namespace deeptune::data
