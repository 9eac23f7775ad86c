// The machine a model trains on: CPU model, the BLAS behind LibTorch (found through the dynamic
// linker and OpenBLAS' own queries), thread settings.
#include "model/compute_environment.hpp"

#include <dlfcn.h>
#include <sched.h>
#include <torch/torch.h>

#include <algorithm>
#include <fstream>
#include <thread>

namespace deeptune::model {
namespace {

/// A symbol of the library at `path` (or of the libraries it depends on), nullptr if absent.
void* symbolOf(const std::string& path, const char* name) {
  void* handle = ::dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (handle == nullptr) return nullptr;
  void* symbol = ::dlsym(handle, name);
  ::dlclose(handle);
  return symbol;
}

}  // namespace

BlasLibrary loadedBlas() {
  BlasLibrary blas;
  Dl_info info{};
  void* gemm = ::dlsym(RTLD_DEFAULT, "sgemm_");
  if (gemm == nullptr || ::dladdr(gemm, &info) == 0 || info.dli_fname == nullptr) {
    blas.description = "unknown (no sgemm_ in this process)";
    return blas;
  }
  blas.path = info.dli_fname;
  blas.description = blas.path;
  using ConfigFunction = const char* (*)();
  using ParallelFunction = int (*)();
  auto config = reinterpret_cast<ConfigFunction>(symbolOf(blas.path, "openblas_get_config"));
  auto parallel = reinterpret_cast<ParallelFunction>(symbolOf(blas.path, "openblas_get_parallel"));
  if (config != nullptr && parallel != nullptr) {
    blas.isOpenBlas = true;
    blas.description = std::string(config()) + " (" + blas.path + ")";
    blas.concurrentCallsSafe = parallel() != 0;  // 0: the single-threaded build
  }
  return blas;
}

int safeTrainingWorkers(int requested, std::string& note) {
  note.clear();
  if (requested <= 1) return requested;
  const BlasLibrary blas = loadedBlas();
  if (blas.concurrentCallsSafe) return requested;
  note = "training on one thread instead of " + std::to_string(requested) + ": the BLAS (" +
         blas.description +
         ") corrupts products computed on two threads at once; install libopenblas0-pthread";
  return 1;
}

std::string cpuDescription() {
  std::string model = "unknown CPU";
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  // Bounded: the first model name is within the first few hundred lines of any /proc/cpuinfo.
  for (int n = 0; n < 1000 && std::getline(cpuinfo, line); ++n) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon != std::string::npos && colon + 2 <= line.size()) model = line.substr(colon + 2);
    break;
  }
  return model + ", " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
         " cores";
}

void setComputeThreads(int threads) {
  threads = std::max(1, threads);
  at::set_num_threads(threads);
  const BlasLibrary blas = loadedBlas();
  if (!blas.isOpenBlas) return;
  using SetThreadsFunction = void (*)(int);
  if (auto set =
          reinterpret_cast<SetThreadsFunction>(symbolOf(blas.path, "openblas_set_num_threads"))) {
    set(threads);
  }
}

int usableHardwareThreads() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace deeptune::model
