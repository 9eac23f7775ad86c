// A batch of launches spread over a few predictors, each kernel's launches on one (its cache).
#include "python/bindings/batch_spread.hpp"

#include <sched.h>

#include <algorithm>
#include <exception>
#include <system_error>
#include <thread>
#include <unordered_map>

namespace deeptune::python {

namespace {
constexpr size_t kKernelsPerSlot =
    16;  ///< fewer distinct kernels per extra predictor: not worth it
}

size_t batchSlots(size_t distinct, size_t most) {
  cpu_set_t cpus;
  size_t usable = 1;
  if (sched_getaffinity(0, sizeof cpus, &cpus) == 0) usable = static_cast<size_t>(CPU_COUNT(&cpus));
  return std::max<size_t>(1, std::min({usable, most, distinct / kKernelsPerSlot}));
}

std::vector<size_t> slotsByKernel(const std::vector<std::string>& texts,
                                  const std::vector<std::string>& kernels, size_t slots,
                                  size_t* distinct) {
  std::unordered_map<std::string, size_t> slotOfKernel;
  std::vector<size_t> result(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    std::string key = kernels[i];
    key += '\0';
    key += texts[i];
    auto found = slotOfKernel.emplace(std::move(key), slotOfKernel.size() % slots).first;
    result[i] = found->second;
  }
  if (distinct != nullptr) *distinct = slotOfKernel.size();
  return result;
}

void runSpread(const std::vector<size_t>& slotOfLaunch, size_t slots,
               const std::function<void(size_t, size_t)>& run) {
  struct Failure {
    size_t launch = SIZE_MAX;
    std::exception_ptr error;
  };
  std::vector<Failure> failures(slots);
  auto runSlot = [&](size_t slot) {
    for (size_t i = 0; i < slotOfLaunch.size(); ++i) {
      if (slotOfLaunch[i] != slot) continue;
      try {
        run(slot, i);
      } catch (...) {
        failures[slot] = {i, std::current_exception()};
        return;
      }
    }
  };
  std::vector<std::thread> threads;
  for (size_t slot = 1; slot < slots; ++slot) {
    try {
      threads.emplace_back(runSlot, slot);
    } catch (const std::system_error&) {  // no thread: the caller runs that slot after its own
      break;
    }
  }
  runSlot(0);
  for (size_t slot = threads.size() + 1; slot < slots; ++slot) runSlot(slot);
  for (std::thread& thread : threads) thread.join();
  const auto first =
      std::min_element(failures.begin(), failures.end(),
                       [](const Failure& a, const Failure& b) { return a.launch < b.launch; });
  if (first->error) std::rethrow_exception(first->error);
}

}  // namespace deeptune::python
