// parallelFor: every index once, on the caller and helpers; the lowest failure is rethrown.
#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "data/parallel_for.hpp"

using deeptune::data::parallelFor;

TEST_CASE("parallelFor runs every index once, whatever the thread count", "[data][parallel-for]") {
  for (int workers : {-1, 0, 1, 2, 3, 8, 100}) {
    INFO("workers " << workers);
    for (size_t count : {0, 1, 2, 7, 64}) {
      std::vector<std::atomic<int>> runs(count);
      parallelFor(count, workers, [&](size_t i) { ++runs[i]; });
      for (size_t i = 0; i < count; ++i) CHECK(runs[i] == 1);
    }
  }
}

TEST_CASE("parallelFor uses the caller and at most `workers` threads", "[data][parallel-for]") {
  const std::thread::id caller = std::this_thread::get_id();
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::atomic<int> waiting{0};
  // Each task waits (bounded) until three have started, so three threads take part.
  parallelFor(3, 3, [&](size_t) {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      threads.insert(std::this_thread::get_id());
    }
    ++waiting;
    for (int spin = 0; spin < 20000 && waiting < 3; ++spin) std::this_thread::yield();
  });
  CHECK(threads.size() == 3);
  CHECK(threads.count(caller) == 1);

  threads.clear();
  parallelFor(5, 1, [&](size_t) { threads.insert(std::this_thread::get_id()); });
  CHECK(threads == std::set<std::thread::id>{caller});
  threads.clear();
  parallelFor(1, 4, [&](size_t) { threads.insert(std::this_thread::get_id()); });
  CHECK(threads == std::set<std::thread::id>{caller});
}

TEST_CASE("parallelFor rethrows the lowest failing index after all threads joined",
          "[data][parallel-for]") {
  for (int workers : {1, 2, 4}) {
    INFO("workers " << workers);
    std::atomic<int> running{0};
    const auto task = [&](size_t i) {
      struct Running {  // counts this task as running until it returns or throws
        std::atomic<int>& count;
        explicit Running(std::atomic<int>& c) : count(c) { ++count; }
        ~Running() { --count; }
      } here(running);
      for (int spin = 0; spin < 100; ++spin) std::this_thread::yield();
      if (i >= 3 && i % 3 == 0) throw std::runtime_error("index " + std::to_string(i));
    };
    CHECK_THROWS_WITH(parallelFor(40, workers, task), "index 3");
    CHECK(running == 0);  // no task still running once it has thrown
  }
}

TEST_CASE("parallelFor starts no new index after a failure", "[data][parallel-for]") {
  std::atomic<size_t> started{0};
  CHECK_THROWS_AS(parallelFor(1000, 1,
                              [&](size_t i) {
                                ++started;
                                if (i == 4) throw std::logic_error("stop");
                              }),
                  std::logic_error);
  CHECK(started == 5);
  started = 0;
  CHECK_THROWS_AS(parallelFor(1000, 2,
                              [&](size_t i) {
                                ++started;
                                if (i == 0) throw std::logic_error("stop");
                                std::this_thread::yield();
                              }),
                  std::logic_error);
  CHECK(started < 1000);
}
