// A batch of launches spread over a few predictors, each kernel's launches on one (its cache).
#include "python/bindings/batch_spread.hpp"

#include <sched.h>

#include <algorithm>
#include <exception>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>

namespace deeptune::python {

namespace {

constexpr size_t kKernelsPerSlot =
    16;  ///< fewer distinct kernels per extra predictor: not worth it

/// A launch's kernel: its source and kernel name, viewed (the batch's strings outlive the map).
struct KernelKey {
  std::string_view text, kernel;
  bool operator==(const KernelKey& other) const {
    return text == other.text && kernel == other.kernel;
  }
};
struct KernelKeyHash {
  size_t operator()(const KernelKey& key) const {
    const std::hash<std::string_view> hash;
    return hash(key.text) * 31 + hash(key.kernel);
  }
};

size_t usableCpus() {
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) return 1;
  return static_cast<size_t>(CPU_COUNT(&cpus));
}

}  // namespace

BatchSpread spreadByKernel(const std::vector<std::string>& texts,
                           const std::vector<std::string>& kernels, size_t most) {
  std::unordered_map<KernelKey, size_t, KernelKeyHash> indexOfKernel;
  std::vector<size_t> kernelOfLaunch(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    kernelOfLaunch[i] =
        indexOfKernel.emplace(KernelKey{texts[i], kernels[i]}, indexOfKernel.size()).first->second;
  }
  BatchSpread spread;
  spread.slots =
      std::max<size_t>(1, std::min({usableCpus(), most, indexOfKernel.size() / kKernelsPerSlot}));
  spread.slotOfLaunch = std::move(kernelOfLaunch);
  for (size_t& slot : spread.slotOfLaunch) slot %= spread.slots;
  return spread;
}

void runSpread(const BatchSpread& spread, const std::function<void(size_t, size_t)>& run) {
  const std::vector<size_t>& slotOfLaunch = spread.slotOfLaunch;
  const size_t slots = spread.slots;
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
