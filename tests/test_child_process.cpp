// Tests of data/child_process: timed runs with streamed lines, the line coprocess, and the pieces
// the supervisors share (socket pair, whole sends, kill and reap).
#include "data/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "data/data_error.hpp"

using Catch::Matchers::Contains;
using deeptune::data::ChildExit;
using deeptune::data::Coprocess;
using deeptune::data::DataError;
using deeptune::data::runChild;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string fileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Whether `pid` is gone or a zombie within 2 s.
bool processGone(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    if (::kill(pid, 0) != 0) return true;
    const std::string stat = fileText("/proc/" + std::to_string(pid) + "/stat");
    const size_t paren = stat.rfind(')');
    if (paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z')
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

TEST_CASE("runChild streams lines and reports the exit", "[data][child_process]") {
  std::vector<std::string> lines;
  const ChildExit exit =
      runChild({"/bin/sh", "-c", "echo one; echo two >&2; printf 'two\\nthree'; exit 3"}, 10,
               [&](const std::string& line) { lines.push_back(line); });
  CHECK(exit.kind == ChildExit::Kind::kExited);
  CHECK(exit.code == 3);
  CHECK(lines == std::vector<std::string>{"one", "two"});  // "three" never ended its line
  CHECK(exit.stderrTail == "two\n");
  CHECK(exit.describe(10) == "exit code 3");
}

TEST_CASE("runChild reports a death by signal", "[data][child_process]") {
  const ChildExit exit =
      runChild({"/bin/sh", "-c", "kill -SEGV $$"}, 10, [](const std::string&) {});
  CHECK(exit.kind == ChildExit::Kind::kSignaled);
  CHECK(exit.code == SIGSEGV);
  CHECK_THAT(exit.describe(10), Contains("signal 11"));
}

TEST_CASE("runChild kills a silent child and its process group at the timeout",
          "[data][child_process]") {
  pid_t grandchild = 0;
  const auto start = std::chrono::steady_clock::now();
  const ChildExit exit = runChild({"/bin/sh", "-c", "sleep 60 & echo $!; wait"}, 1,
                                  [&](const std::string& line) { grandchild = std::stoi(line); });
  const double elapsed = secondsSince(start);
  CHECK(exit.kind == ChildExit::Kind::kTimedOut);
  CHECK(elapsed >= 0.9);
  CHECK(elapsed < 5);
  REQUIRE(grandchild > 0);
  CHECK(processGone(grandchild));
  CHECK_THAT(exit.describe(1), Contains("no result within 1 s"));
}

TEST_CASE("every line restarts the timeout clock", "[data][child_process]") {
  int lines = 0;
  const ChildExit exit =
      runChild({"/bin/sh", "-c", "for i in 1 2 3 4; do echo $i; sleep 0.4; done"}, 1,
               [&](const std::string&) { ++lines; });
  CHECK(exit.kind == ChildExit::Kind::kExited);  // 1.6 s in all, never 1 s without a line
  CHECK(lines == 4);
}

TEST_CASE("runChild refuses a command that cannot start", "[data][child_process]") {
  CHECK_THROWS_AS(runChild({"/nonexistent/worker"}, 1, [](const std::string&) {}), DataError);
  CHECK_THROWS_WITH(runChild({"/nonexistent/worker"}, 1, [](const std::string&) {}),
                    Contains("cannot start /nonexistent/worker"));
  CHECK_THROWS_AS(runChild({}, 1, [](const std::string&) {}), DataError);
}

TEST_CASE("what onLine throws passes on and the child is killed", "[data][child_process]") {
  struct Stop {};
  pid_t child = 0;
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(runChild({"/bin/sh", "-c", "echo $$; sleep 60"}, 30,
                           [&](const std::string& line) {
                             child = std::stoi(line);
                             throw Stop{};
                           }),
                  Stop);
  CHECK(secondsSince(start) < 5);
  REQUIRE(child > 0);
  CHECK(::kill(child, 0) != 0);  // killed and reaped: no zombie left
}

TEST_CASE("a coprocess answers lines and ends with its input", "[data][child_process]") {
  Coprocess cat({"/bin/cat"});
  CHECK(cat.ownedByThisProcess());
  cat.writeLine("first");
  cat.writeLine("second\tfield");
  CHECK(cat.readLine(10) == std::optional<std::string>("first"));
  CHECK(cat.readLine(10) == std::optional<std::string>("second\tfield"));
}

TEST_CASE("a coprocess that says nothing times out; one that ended reads as the end",
          "[data][child_process]") {
  Coprocess silent({"/bin/sh", "-c", "sleep 60"});
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(silent.readLine(0.3), Contains("no answer within 0.3 s"));
  CHECK(secondsSince(start) < 5);

  Coprocess brief({"/bin/sh", "-c", "echo bye"});
  CHECK(brief.readLine(10) == std::optional<std::string>("bye"));
  CHECK(brief.readLine(10) == std::nullopt);
  CHECK_THROWS_AS(Coprocess({"/nonexistent/service"}), DataError);
  CHECK_THROWS_AS(Coprocess({}), DataError);
}

TEST_CASE("the shared pieces: socket pair, whole sends, kill and reap", "[data][child_process]") {
  int ends[2] = {-1, -1};
  REQUIRE(deeptune::data::makeSocketPair(ends) == 0);
  CHECK((::fcntl(ends[0], F_GETFD) & FD_CLOEXEC) != 0);
  CHECK((::fcntl(ends[1], F_GETFD) & FD_CLOEXEC) != 0);
  // More than a socket buffer holds: sendAll goes on until a reader took it all.
  const std::string big(std::size_t{4} << 20, 'x');
  std::string received;
  std::thread reader([&] {
    char chunk[65536];
    while (received.size() < big.size()) {
      const ssize_t n = ::read(ends[1], chunk, sizeof chunk);
      if (n <= 0) break;
      received.append(chunk, static_cast<size_t>(n));
    }
  });
  CHECK(deeptune::data::sendAll(ends[0], big));
  reader.join();
  CHECK(received == big);
  // A peer that is gone is false with EPIPE, not a SIGPIPE.
  ::close(ends[1]);
  errno = 0;
  CHECK_FALSE(deeptune::data::sendAll(ends[0], "late"));
  CHECK(errno == EPIPE);
  ::close(ends[0]);

  // killAndReap: a child in a group of its own, and its group, killed; no zombie stays.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::setpgid(0, 0);
    ::pause();
    ::_exit(0);
  }
  ::setpgid(child, child);  // either this or the child's own call makes the group first
  const int status = deeptune::data::killAndReap(child, true);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  CHECK(::waitpid(child, nullptr, WNOHANG) < 0);  // already reaped
}
