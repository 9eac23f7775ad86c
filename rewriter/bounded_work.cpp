// Runs normalizations in a forked worker child with bounded address space and CPU time.
#include "rewriter/internal/bounded_work.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <algorithm>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>

#include "data/child_process.hpp"
#include "rewriter/internal/child_watcher.hpp"
#include "rewriter/rewrite_error.hpp"

namespace deeptune::rewriter::internal {
namespace {

constexpr int kOutOfMemoryExit = 3;
/// A request blocked somewhere (a read that never returns) still ends: when the wall alarm finds
/// that the worker used less CPU time since it was last armed than this, or than 5% of the alarm's
/// period if that is less (a short period, as in tests: a worker that computes gets at least that
/// share of a CPU even on a machine loaded many times over). A worker that is only slow goes on,
/// bounded by its CPU timer.
constexpr long long kProgressNanoseconds = 500'000'000;
constexpr long long kProgressShareOfPeriod = 20;  ///< 1/20 = 5%
constexpr int kWorkerSocket = 3;
/// A worker whose address space grew by more than this over requests makes way for a new one, so
/// that every request has about kWorkAddressSpaceBytes to itself.
constexpr std::size_t kRecycleGrowthBytes = std::size_t{32} << 20;
constexpr std::size_t kMaxRequestBytes = std::size_t{64} << 20;

std::size_t currentAddressSpace() {
  unsigned long pages = 0;
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%lu", &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

/// Closes every descriptor of the caller's in the worker but the standard streams and `keep`
/// (kWorkerSocket, the highest one kept): no peer of the caller waits for the worker to let go of
/// a pipe or socket, and no lock or file of the caller's stays held by it.
void closeInheritedDescriptors(int keep) {
  if (::close_range(static_cast<unsigned>(keep) + 1, ~0u, 0) == 0) return;
  const long limit = sysconf(_SC_OPEN_MAX);  // a kernel without close_range (before 5.9)
  for (long fd = keep + 1; fd < (limit > 0 ? limit : 65536); ++fd) close(static_cast<int>(fd));
}

/// In the worker: default signal actions (no handler of the caller's runs here), no core files,
/// standard streams to /dev/null (LLVM prints "out of memory" before it aborts), the socket on
/// kWorkerSocket, every other descriptor of the caller's closed, the address-space bound.
void enterWorker(int socket) {
  sigset_t all;
  sigfillset(&all);
  sigprocmask(SIG_UNBLOCK, &all, nullptr);
  for (int number = 1; number < NSIG; ++number) {
    if (number != SIGKILL && number != SIGSTOP) std::signal(number, SIG_DFL);
  }
  const rlimit noCore{0, 0};
  setrlimit(RLIMIT_CORE, &noCore);
  const int high = fcntl(socket, F_DUPFD, 10);  // out of the way of 0, 1, 2 and 3
  if (high < 0) _exit(1);
  close(socket);
  const int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    for (int stream : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) dup2(null, stream);
    if (null > STDERR_FILENO) close(null);
  }
  if (dup2(high, kWorkerSocket) != kWorkerSocket) _exit(1);
  close(high);
  closeInheritedDescriptors(kWorkerSocket);
  rlimit space{};
  getrlimit(RLIMIT_AS, &space);
  const rlim_t wanted = currentAddressSpace() + kWorkAddressSpaceBytes;
  if (space.rlim_cur == RLIM_INFINITY || wanted < space.rlim_cur) space.rlim_cur = wanted;
  setrlimit(RLIMIT_AS, &space);
}

bool readExactly(int fd, char* into, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = read(fd, into + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

/// Reads one putField frame of at most `limit` bytes; false at end of stream or when too long.
bool readFrame(int fd, std::string& frame, std::size_t limit) {
  uint64_t size = 0;
  if (!readExactly(fd, reinterpret_cast<char*>(&size), sizeof size) || size > limit) return false;
  frame.resize(static_cast<std::size_t>(size));
  return readExactly(fd, frame.data(), frame.size());
}

long long cpuNanoseconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<long long>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

unsigned alarmSeconds = 0;  ///< the worker's wall period, set before its first alarm
long long cpuAtAlarm = 0;   ///< the CPU time when the wall alarm was last armed

void armWallAlarm() {
  cpuAtAlarm = cpuNanoseconds();
  alarm(alarmSeconds);
}

/// SIGALRM in the worker: armed again when the worker made progress since the last alarm, else the
/// signal's default action ends it (the caller reads the wall bound from its status).
void onWallAlarm(int) {
  const long long periodShare = alarmSeconds * 1'000'000'000LL / kProgressShareOfPeriod;
  if (cpuNanoseconds() - cpuAtAlarm >= std::min(kProgressNanoseconds, periodShare)) {
    armWallAlarm();
    return;
  }
  signal(SIGALRM, SIG_DFL);
  raise(SIGALRM);
}

/// The worker's whole answer to one request: "O" + result, "E" + a RewriteError's parts, or
/// "X" + a message.
std::string answerOf(const BoundedWorker::Serve& serve, const std::string& request) {
  std::string answer;
  try {
    std::string result = serve(request);
    answer = "O";
    putField(answer, result);
  } catch (const RewriteError& error) {
    if (!error.aboutInput()) {  // the parent reports it at the request's file, as "X" below
      answer = "X";
      putField(answer, error.message());
      return answer;
    }
    answer = "E";
    putField(answer, error.file());
    putField(answer, std::to_string(error.line()));
    putField(answer, std::to_string(error.column()));
    putField(answer, error.message());
  } catch (const std::bad_alloc&) {
    _exit(kOutOfMemoryExit);
  } catch (const std::exception& error) {
    answer = "X";
    putField(answer, error.what());
  }
  return answer;
}

/// The worker's life: a request at a time, each with its CPU timer (SIGXCPU) and wall alarm
/// (SIGALRM, every `wallSeconds` while it makes progress); the default action of either ends it.
[[noreturn]] void serveRequests(const BoundedWorker::Serve& serve,
                                const std::function<void()>& warmUp, int wallSeconds, int socket) {
  enterWorker(socket);
  alarmSeconds = static_cast<unsigned>(wallSeconds);
  sigevent onCpuLimit{};
  onCpuLimit.sigev_notify = SIGEV_SIGNAL;
  onCpuLimit.sigev_signo = SIGXCPU;
  timer_t cpuTimer{};
  if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &onCpuLimit, &cpuTimer) != 0) _exit(1);
  struct sigaction onAlarm {};
  onAlarm.sa_handler = onWallAlarm;
  onAlarm.sa_flags = SA_RESTART;
  sigemptyset(&onAlarm.sa_mask);
  if (sigaction(SIGALRM, &onAlarm, nullptr) != 0) _exit(1);
  itimerspec armed{};
  armed.it_value.tv_sec = kWorkCpuSeconds;
  const itimerspec disarmed{};
  if (warmUp) {  // under the same bounds as a request
    timer_settime(cpuTimer, 0, &armed, nullptr);
    armWallAlarm();
    try {
      warmUp();
    } catch (const std::bad_alloc&) {
      _exit(kOutOfMemoryExit);
    } catch (const std::exception&) {  // the first request meets the same problem and says it
    }
    alarm(0);
    timer_settime(cpuTimer, 0, &disarmed, nullptr);
  }
  const std::size_t baseline = currentAddressSpace();
  for (;;) {
    pollfd waiting{kWorkerSocket, POLLIN, 0};
    const int ready = poll(&waiting, 1, kWorkerIdleMilliseconds);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) _exit(0);  // idle: the next request forks a new worker
    std::string request;
    if (!readFrame(kWorkerSocket, request, kMaxRequestBytes)) _exit(0);  // the caller went away
    timer_settime(cpuTimer, 0, &armed, nullptr);
    armWallAlarm();
    std::string framed;
    putField(framed, answerOf(serve, request));
    alarm(0);
    timer_settime(cpuTimer, 0, &disarmed, nullptr);
    if (!data::sendAll(kWorkerSocket, framed)) _exit(0);
    if (currentAddressSpace() > baseline + kRecycleGrowthBytes) _exit(0);
  }
}

std::string limitMessage(int status, int wallSeconds) {
  const std::string memory =
      "needs more than " + std::to_string(kWorkAddressSpaceBytes >> 20) + " MiB of memory";
  const std::string cpu = "needs more than " + std::to_string(kWorkCpuSeconds) + " s of CPU time";
  std::string what;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kOutOfMemoryExit) {
    what = memory;
  } else if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL)) {
    what = cpu;
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT) {
    what = memory;  // LLVM aborts when an allocation fails
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    return "the normalizer made no progress for " + std::to_string(wallSeconds) +
           " s (blocked, not computing)";
  } else if (WIFSIGNALED(status)) {  // not a bound: the parse itself died
    return "the normalizer crashed on this input (" + std::string(strsignal(WTERMSIG(status))) +
           "; Clang 15 crashes on some malformed sources)";
  } else {
    return "the normalizer stopped (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  }
  return "too complex to normalize: " + what;
}

/// The result of an answer frame, or the RewriteError it carries.
std::string resultOf(const std::string& answer, const std::string& fileName) {
  std::size_t offset = 1;
  std::optional<RewriteError> carried;
  try {
    if (!answer.empty() && answer[0] == 'O') return takeField(answer, offset);
    if (!answer.empty() && answer[0] == 'E') {
      std::string file = takeField(answer, offset);
      const int errorLine = std::stoi(takeField(answer, offset));
      const int errorColumn = std::stoi(takeField(answer, offset));
      carried.emplace(std::move(file), errorLine, errorColumn, takeField(answer, offset));
    } else if (!answer.empty() && answer[0] == 'X') {
      carried.emplace(fileName, 1, 1, takeField(answer, offset));
    }
  } catch (const std::logic_error&) {  // std::stoi: not a number, or out of range
  } catch (const RewriteError&) {      // a truncated field
  }
  if (carried) throw std::move(*carried);
  throw RewriteError(fileName, 1, 1, "the normalizer gave an answer it cannot read");
}

}  // namespace

void putField(std::string& out, const std::string& field) {
  const uint64_t size = field.size();
  out.append(reinterpret_cast<const char*>(&size), sizeof size);
  out += field;
}

std::string takeField(const std::string& in, std::size_t& offset) {
  uint64_t size = 0;
  if (in.size() - offset < sizeof size) throw RewriteError("truncated answer");
  std::memcpy(&size, in.data() + offset, sizeof size);
  offset += sizeof size;
  if (in.size() - offset < size) throw RewriteError("truncated answer");
  std::string field = in.substr(offset, static_cast<std::size_t>(size));
  offset += static_cast<std::size_t>(size);
  return field;
}

BoundedWorker::BoundedWorker(Serve serve, std::function<void()> warmUp, int wallSeconds)
    : serve_(std::move(serve)), warmUp_(std::move(warmUp)), wallSeconds_(wallSeconds) {}

BoundedWorker::~BoundedWorker() {
  if (pid_ <= 0) return;
  if (owner_ != getpid()) {  // another process's child: only this copy of its socket is ours
    forget();
    return;
  }
  close(socket_);
  socket_ = -1;
  killChild();
  reap();
}

void BoundedWorker::start(const std::string& fileName, bool warm) {
  int ends[2];
  if (const int error = data::makeSocketPair(ends); error != 0) {
    throw RewriteError(fileName, 1, 1,
                       std::string("cannot start the normalizer: ") + std::strerror(error));
  }
  const pid_t pid = fork();
  if (pid < 0) {
    const int error = errno;
    close(ends[0]);
    close(ends[1]);
    throw RewriteError(fileName, 1, 1,
                       std::string("cannot start the normalizer: ") + std::strerror(error));
  }
  if (pid == 0) {
    close(ends[0]);
    serveRequests(serve_, warm ? warmUp_ : std::function<void()>(), wallSeconds_, ends[1]);
  }
  close(ends[1]);
  pid_ = pid;
  owner_ = getpid();
  socket_ = ends[0];
  ending_ = std::make_shared<ChildEnding>();
  try {
    watchChild(pid, ending_);
  } catch (const std::exception& error) {  // unwatched, the child cannot be reaped: stop it
    data::killAndReap(pid, false);
    forget();
    throw RewriteError(fileName, 1, 1, std::string("cannot start the normalizer: ") + error.what());
  }
}

int BoundedWorker::reap() {
  int status = 0;
  {
    std::unique_lock<std::mutex> lock(ending_->mutex);
    ending_->changed.wait(lock, [this] { return ending_->done; });
    status = ending_->status;
  }
  forget();
  return status;
}

void BoundedWorker::killChild() {
  const std::lock_guard<std::mutex> lock(ending_->mutex);
  if (!ending_->done) kill(pid_, SIGKILL);
}

bool BoundedWorker::ended() const {
  const std::lock_guard<std::mutex> lock(ending_->mutex);
  return ending_->done;
}

void BoundedWorker::forget() {
  if (socket_ >= 0) close(socket_);
  pid_ = -1;
  socket_ = -1;
  ending_.reset();
}

bool BoundedWorker::exchange(const std::string& request, std::string& answer) {
  std::string framed;
  putField(framed, request);
  if (!data::sendAll(socket_, framed)) return false;
  if (readFrame(socket_, answer, kWorkAddressSpaceBytes)) return true;
  // No answer is this large, or the worker ended: stop it (a worker that ended keeps its status).
  killChild();
  return false;
}

void BoundedWorker::dropStaleChild() {
  // In a process forked from the one that started the child, that child is not ours to use.
  if (pid_ > 0 && owner_ != getpid()) forget();
  // A worker that exited since its last answer (idle, or grown) is replaced.
  if (pid_ > 0 && ended()) forget();
}

void BoundedWorker::prestart() {
  const std::lock_guard<std::mutex> lock(mutex_);
  dropStaleChild();
  if (pid_ > 0) return;
  try {
    start("", true);
  } catch (const RewriteError&) {  // the next request tries again and reports it
  }
}

std::string BoundedWorker::run(const std::string& request, const std::string& fileName, int line,
                               int column) {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (int attempt = 0;; ++attempt) {
    dropStaleChild();
    if (pid_ < 0) start(fileName);
    std::string answer;
    if (exchange(request, answer)) return resultOf(answer, fileName);
    const int status = reap();
    // A worker that reached its idle end as the request was sent: once more, with a new one.
    if (attempt == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) continue;
    throw RewriteError(fileName, line, column, limitMessage(status, wallSeconds_));
  }
}

}  // namespace deeptune::rewriter::internal
