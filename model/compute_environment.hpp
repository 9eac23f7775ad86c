// The machine a model trains on: the CPU, the BLAS that LibTorch's matrix products run on in
// this process, and the compute threads.
#pragma once

#include <string>

namespace deeptune::model {

/// What this process's BLAS (the library that provides `sgemm_`) is, as far as it can tell.
struct BlasLibrary {
  std::string path;         ///< shared object providing sgemm_, "" if not found
  std::string description;  ///< e.g. "OpenBLAS 0.3.21 ... MAX_THREADS=64", or the path
  bool isOpenBlas = false;
  /// False for a single-threaded OpenBLAS: Debian 12's `libopenblas0-serial` is built without
  /// locking, and two threads multiplying at once corrupt each other's products (its sgemm
  /// shares one buffer pool; model/README.md has the measurement). OpenBLAS' pthread and OpenMP
  /// builds lock that pool. Other BLAS libraries (reference, BLIS, MKL) are taken as safe.
  bool concurrentCallsSafe = true;
};

/// Looks the loaded BLAS up (dladdr on sgemm_, then OpenBLAS' own queries). Never throws.
BlasLibrary loadedBlas();

/// How many threads may train models at once in this process: `requested`, or 1 when the BLAS
/// is not safe for concurrent calls (then `note` says why and what to install; else it is "").
int safeTrainingWorkers(int requested, std::string& note);

/// "AMD EPYC, 2 cores": the CPU model from /proc/cpuinfo (or "unknown CPU") and the number of
/// hardware threads. Never throws.
std::string cpuDescription();

/// The hardware threads this process may run on (its CPU affinity mask), at least 1: the
/// default of `train --threads`.
int usableHardwareThreads();

/// Sets the intra-op threads of the tensor library and of OpenBLAS (when it is the BLAS) for this
/// process. Training uses one thread per worker: a stock LSTM gains nothing from a second
/// thread on these machines, and a fixed count keeps results independent of the worker count.
void setComputeThreads(int threads);

}  // namespace deeptune::model
