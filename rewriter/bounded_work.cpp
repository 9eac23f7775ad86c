// Runs one normalization in a forked child with bounded address space and CPU time.
#include "rewriter/internal/bounded_work.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>

#include "rewriter/rewrite_error.hpp"

namespace deeptune::rewriter::internal {
namespace {

constexpr int kOutOfMemoryExit = 3;
constexpr int kWallSeconds = 60;  // a child blocked somewhere (not using CPU) still ends

std::size_t currentAddressSpace() {
  unsigned long pages = 0;
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%lu", &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

/// In the child: the bounds, default signal actions, no core files, standard streams to
/// /dev/null (LLVM prints "out of memory" before it aborts).
void enterBounds() {
  sigset_t all;
  sigfillset(&all);
  sigprocmask(SIG_UNBLOCK, &all, nullptr);
  for (int number : {SIGXCPU, SIGALRM, SIGPIPE, SIGABRT, SIGSEGV}) std::signal(number, SIG_DFL);
  const rlimit noCore{0, 0};
  setrlimit(RLIMIT_CORE, &noCore);
  const rlimit cpu{kWorkCpuSeconds, kWorkCpuSeconds + 1};  // SIGXCPU, then SIGKILL
  setrlimit(RLIMIT_CPU, &cpu);
  rlimit space{};
  getrlimit(RLIMIT_AS, &space);
  const rlim_t wanted = currentAddressSpace() + kWorkAddressSpaceBytes;
  if (space.rlim_cur == RLIM_INFINITY || wanted < space.rlim_cur) space.rlim_cur = wanted;
  setrlimit(RLIMIT_AS, &space);
  alarm(kWallSeconds);
  const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null >= 0) {
    dup2(null, STDIN_FILENO);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
}

bool writeAll(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

/// The child's whole answer: "O" + result, "E" + a RewriteError's parts, or "X" + a message.
std::string answerOf(const std::function<std::string()>& work) {
  std::string answer;
  try {
    std::string result = work();
    answer = "O";
    putField(answer, result);
  } catch (const RewriteError& error) {
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

std::string limitMessage(int status) {
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
    what = "did not finish within " + std::to_string(kWallSeconds) + " s";
  } else if (WIFSIGNALED(status)) {  // not a bound: the parse itself died
    return "the normalizer crashed on this input (" + std::string(strsignal(WTERMSIG(status))) +
           "; Clang 15 crashes on some malformed sources)";
  } else {
    return "the normalizer stopped (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  }
  return "too complex to normalize: " + what;
}

}  // namespace

void putField(std::string& out, const std::string& field) {
  const uint64_t size = field.size();
  out.append(reinterpret_cast<const char*>(&size), sizeof size);
  out += field;
}

std::string takeField(const std::string& in, std::size_t& offset) {
  uint64_t size = 0;
  if (in.size() - offset < sizeof size) throw std::runtime_error("truncated answer");
  std::memcpy(&size, in.data() + offset, sizeof size);
  offset += sizeof size;
  if (in.size() - offset < size) throw std::runtime_error("truncated answer");
  std::string field = in.substr(offset, static_cast<std::size_t>(size));
  offset += static_cast<std::size_t>(size);
  return field;
}

std::string runBoundedWork(const std::function<std::string()>& work, const std::string& fileName,
                           int line, int column) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    throw RewriteError(fileName, 1, 1,
                       std::string("cannot start the normalizer: ") + std::strerror(errno));
  }
  const pid_t pid = fork();
  if (pid < 0) {
    const int error = errno;
    close(fds[0]);
    close(fds[1]);
    throw RewriteError(fileName, 1, 1,
                       std::string("cannot start the normalizer: ") + std::strerror(error));
  }
  if (pid == 0) {
    close(fds[0]);
    enterBounds();
    std::string framed;
    putField(framed, answerOf(work));
    _exit(writeAll(fds[1], framed) ? 0 : 1);
  }
  close(fds[1]);
  std::string received;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    received.append(buffer, static_cast<std::size_t>(n));
    if (received.size() > kWorkAddressSpaceBytes) {  // no answer is this large: stop the child
      kill(pid, SIGKILL);
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string answer;
  std::size_t offset = 0;
  try {
    answer = takeField(received, offset);
  } catch (const std::runtime_error&) {
    answer.clear();
  }
  if (answer.empty() || offset != received.size()) {
    throw RewriteError(fileName, line, column, limitMessage(status));
  }
  offset = 1;
  try {
    if (answer[0] == 'O') return takeField(answer, offset);
    if (answer[0] == 'E') {
      std::string file = takeField(answer, offset);
      const int errorLine = std::stoi(takeField(answer, offset));
      const int errorColumn = std::stoi(takeField(answer, offset));
      throw RewriteError(std::move(file), errorLine, errorColumn, takeField(answer, offset));
    }
    if (answer[0] == 'X') throw RewriteError(fileName, 1, 1, takeField(answer, offset));
  } catch (const std::invalid_argument&) {
  } catch (const std::out_of_range&) {
  } catch (const RewriteError&) {
    throw;
  } catch (const std::runtime_error&) {
  }
  throw RewriteError(fileName, 1, 1, "the normalizer gave an answer it cannot read");
}

}  // namespace deeptune::rewriter::internal
