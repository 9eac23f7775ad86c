// The rewriter's bounded worker: reused across requests, replaced after a death or when idle,
// holding none of the caller's pipes and running none of its signal handlers.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "rewriter/internal/bounded_work.hpp"
#include "rewriter/rewrite_error.hpp"
#include "tests/scratch_dir.hpp"

using deeptune::rewriter::RewriteError;
using deeptune::rewriter::internal::BoundedWorker;

namespace {

/// A worker whose requests name what to do: "pid", "crash", "signal", "grow", "fail", "setup"
/// (an error not about the input), "block" (waits forever), "spin" (2.5 s of CPU time), or
/// "echo:TEXT" (answered with TEXT).
BoundedWorker::Serve testServe() {
  return [](const std::string& request) -> std::string {
    if (request.rfind("echo:", 0) == 0) return request.substr(5);
    if (request == "crash") std::raise(SIGSEGV);
    if (request == "signal") std::raise(SIGUSR1);
    if (request == "grow") {  // leaves 64 MiB behind, touched
      auto* block = new char[64u << 20];
      std::memset(block, 1, 64u << 20);
    }
    if (request == "fail") throw RewriteError("k.cl", 3, 4, "no such kernel");
    if (request == "setup") throw RewriteError("cannot build the PCH");
    if (request == "block") {
      for (;;) pause();
    }
    if (request == "spin") {
      const std::clock_t start = std::clock();
      while (std::clock() - start < CLOCKS_PER_SEC * 5 / 2) {
      }
    }
    return std::to_string(getpid());
  };
}

std::string errorOf(BoundedWorker& worker, const std::string& request) {
  try {
    worker.run(request, "k.cl", 1, 1);
  } catch (const RewriteError& error) {
    return error.what();
  }
  return "";
}

volatile std::sig_atomic_t handled = 0;
void countSignal(int) { handled = handled + 1; }

}  // namespace

TEST_CASE("the bounded worker serves request after request in one child", "[rewriter][worker]") {
  BoundedWorker worker(testServe());
  const std::string first = worker.run("pid", "k.cl", 1, 1);
  CHECK(first != std::to_string(getpid()));
  CHECK(worker.run("pid", "k.cl", 1, 1) == first);
  CHECK(worker.run("pid", "k.cl", 1, 1) == first);
  // An error the work throws comes back as it was, and the worker stays.
  CHECK(errorOf(worker, "fail") == "k.cl:3:4: no such kernel");
  CHECK(worker.run("pid", "k.cl", 1, 1) == first);
  // One without a position is the request's file's, at 1:1.
  CHECK(errorOf(worker, "setup") == "k.cl:1:1: cannot build the PCH");
}

TEST_CASE("a prestarted worker warms up before its first request; one started by it does not",
          "[rewriter][worker]") {
  static bool warmed = false;  // set in the child only: the caller's copy stays false
  const auto serve = [](const std::string&) -> std::string { return warmed ? "warm" : "cold"; };
  BoundedWorker early(serve, [] { warmed = true; });
  early.prestart();
  const pid_t child = early.childForTests();
  REQUIRE(child > 0);
  early.prestart();  // one is running: no second child
  CHECK(early.childForTests() == child);
  CHECK(early.run("", "k.cl", 1, 1) == "warm");
  CHECK(early.childForTests() == child);
  CHECK_FALSE(warmed);
  BoundedWorker onDemand(serve, [] { warmed = true; });
  CHECK(onDemand.run("", "k.cl", 1, 1) == "cold");
}

TEST_CASE("a worker that died is replaced on the next request", "[rewriter][worker]") {
  BoundedWorker worker(testServe());
  const std::string first = worker.run("pid", "k.cl", 1, 1);
  const std::string crash = errorOf(worker, "crash");
  CHECK(crash.find("k.cl:1:1: the normalizer crashed on this input (Segmentation fault") == 0);
  const std::string second = worker.run("pid", "k.cl", 1, 1);
  CHECK(second != first);
  CHECK(worker.run("pid", "k.cl", 1, 1) == second);
}

TEST_CASE("an idle worker ends, and one that grew is replaced", "[rewriter][worker]") {
  BoundedWorker worker(testServe());
  const std::string first = worker.run("pid", "k.cl", 1, 1);
  std::this_thread::sleep_for(
      std::chrono::milliseconds(deeptune::rewriter::internal::kWorkerIdleMilliseconds + 500));
  const std::string afterIdle = worker.run("pid", "k.cl", 1, 1);
  CHECK(afterIdle != first);
  CHECK(worker.run("grow", "k.cl", 1, 1) == afterIdle);  // answered, then it makes way
  CHECK(worker.run("pid", "k.cl", 1, 1) != afterIdle);
}

TEST_CASE("the worker keeps none of the caller's pipes nor its signal handlers",
          "[rewriter][worker]") {
  int ends[2];
  REQUIRE(pipe(ends) == 0);
  BoundedWorker worker(testServe());
  worker.run("pid", "k.cl", 1, 1);  // forked now, while the caller holds both ends
  close(ends[1]);
  // The reader sees the end of the pipe at once: no other process holds its write end.
  pollfd reader{ends[0], POLLIN, 0};
  REQUIRE(poll(&reader, 1, 2000) == 1);
  char byte = 0;
  CHECK(read(ends[0], &byte, 1) == 0);
  close(ends[0]);

  // A signal the caller handles ends the worker (its default action), not the caller's handler.
  struct sigaction action {};
  action.sa_handler = countSignal;
  struct sigaction previous {};
  REQUIRE(sigaction(SIGUSR1, &action, &previous) == 0);
  BoundedWorker handlerWorker(testServe());
  const std::string message = errorOf(handlerWorker, "signal");
  sigaction(SIGUSR1, &previous, nullptr);
  CHECK(message.find("the normalizer crashed on this input (User defined signal 1") !=
        std::string::npos);
  CHECK(handled == 0);
}

TEST_CASE("requests from several threads are served one at a time", "[rewriter][worker]") {
  BoundedWorker worker(testServe());
  const std::string pid = worker.run("pid", "k.cl", 1, 1);
  std::vector<std::string> answers(4);
  std::vector<std::thread> threads;
  for (std::string& answer : answers) {
    threads.emplace_back([&worker, &answer] {
      for (int i = 0; i < 20; ++i) answer = worker.run("pid", "k.cl", 1, 1);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const std::string& answer : answers) CHECK(answer == pid);
}

namespace {

/// In a process of its own: `rounds` requests that name this process and the round, each checked
/// against its answer; the exit code is the number of wrong answers (capped), 100 for an error.
int askAsThisProcess(BoundedWorker& worker, int rounds) {
  int wrong = 0;
  try {
    for (int i = 0; i < rounds; ++i) {
      const std::string text = std::to_string(getpid()) + "/" + std::to_string(i);
      if (worker.run("echo:" + text, "k.cl", 1, 1) != text) ++wrong;
    }
  } catch (const std::exception&) {
    return 100;
  }
  return wrong > 99 ? 99 : wrong;
}

/// Runs `body` in a forked child with an alarm (a hang ends it) and returns its wait status.
template <typename Body>
int inChildProcess(Body body) {
  const pid_t pid = fork();
  if (pid == 0) {
    alarm(30);
    _exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

}  // namespace

TEST_CASE("a process forked after the worker started gets its own, and no answer crosses",
          "[rewriter][worker][fork]") {
  // The application: it starts the worker, then forks; parent and child both keep asking.
  const int status = inChildProcess([] {
    BoundedWorker worker(testServe());
    const std::string parentWorker = worker.run("pid", "k.cl", 1, 1);
    const pid_t child = fork();
    if (child == 0) {
      alarm(30);
      if (worker.run("pid", "k.cl", 1, 1) == parentWorker) _exit(101);  // the parent's worker
      _exit(askAsThisProcess(worker, 300));
    }
    const int parentWrong = askAsThisProcess(worker, 300);
    int childStatus = 0;
    waitpid(child, &childStatus, 0);
    if (worker.run("pid", "k.cl", 1, 1) != parentWorker) return 102;  // the parent kept its own
    if (!WIFEXITED(childStatus)) return 103;
    return parentWrong != 0 ? parentWrong : WEXITSTATUS(childStatus);
  });
  INFO("status " << status);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("a worker that ends by itself is reaped at once", "[rewriter][worker]") {
  BoundedWorker worker(testServe());
  worker.run("pid", "k.cl", 1, 1);
  const pid_t child = worker.childForTests();
  REQUIRE(child > 0);
  std::this_thread::sleep_for(
      std::chrono::milliseconds(deeptune::rewriter::internal::kWorkerIdleMilliseconds + 800));
  // Gone, not a zombie waiting for the next request (kill(pid, 0) succeeds on a zombie).
  errno = 0;
  CHECK(kill(child, 0) == -1);
  CHECK(errno == ESRCH);
}

TEST_CASE("the worker holds none of the caller's files", "[rewriter][worker]") {
  deeptune::test::ScratchDir dir("deeptune-worker-files");
  const std::string path = dir.file("locked", "x");
  // Above the worker's own descriptors (its socket takes 3), as an application's files are.
  const int low = open(path.c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(low >= 0);
  const int fd = fcntl(low, F_DUPFD_CLOEXEC, 100);
  close(low);
  REQUIRE(fd >= 100);
  REQUIRE(flock(fd, LOCK_EX) == 0);
  BoundedWorker worker(testServe());
  worker.run("pid", "k.cl", 1, 1);  // forked now, while the caller holds the file and its lock
  close(fd);
  // The lock went with the caller's last descriptor: another open of the file can take it.
  const int other = open(path.c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(other >= 0);
  CHECK(flock(other, LOCK_EX | LOCK_NB) == 0);
  close(other);
}

TEST_CASE("a blocked request ends at the wall alarm; a slow one that computes goes on",
          "[rewriter][worker]") {
  BoundedWorker worker(testServe(), {}, 1);  // the wall alarm every second
  const auto start = std::chrono::steady_clock::now();
  CHECK_THAT(errorOf(worker, "block"),
             Catch::Contains("k.cl:1:1: the normalizer made no progress for 1 s"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  // 2.5 s of CPU time spans two alarms; each finds progress, and the CPU bound is 6 s.
  CHECK(errorOf(worker, "spin") == "");
}
