// parallelFor: hands out indices to the caller and helper threads; keeps the lowest failure.
#include "data/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace deeptune::data {

void parallelFor(size_t count, int workers, const std::function<void(size_t)>& task) {
  const size_t threads = std::min(count, static_cast<size_t>(std::max(1, workers)));
  if (threads <= 1) {  // in order on the caller: the first failure is the lowest
    for (size_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex failureMutex;
  size_t failedIndex = count;
  std::exception_ptr failure;
  // An index taken is always run: every index below a failing one was taken before it and runs,
  // so the failure kept is the lowest of the whole range.
  const auto work = [&] {
    while (!failed) {
      const size_t i = next++;
      if (i >= count) return;
      try {
        task(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failureMutex);
        if (i < failedIndex) {
          failedIndex = i;
          failure = std::current_exception();
        }
        failed = true;
      }
    }
  };
  std::vector<std::thread> helpers;
  helpers.reserve(threads - 1);
  try {
    while (helpers.size() + 1 < threads) helpers.emplace_back(work);
  } catch (const std::system_error&) {  // no more threads: those started and the caller do it
  }
  work();
  for (std::thread& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace deeptune::data
