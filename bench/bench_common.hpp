// Helpers the benchmarks share: elapsed time, percentiles, the paper's distinct kernels.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <set>
#include <string>
#include <vector>

#include "data/datasets.hpp"

extern "C" char** environ;

namespace deeptune::bench {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// The value at fraction `p` (0 to 1) of the sorted values; `values` must not be empty.
inline double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(p * static_cast<double>(values.size() - 1))];
}

/// Wall milliseconds of one run of `argv` (its program found on PATH when it has no '/'), its
/// output to /dev/null, exec to exit; -1 if it cannot start or does not exit with status 0.
inline double processRunMs(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  const auto start = Clock::now();
  pid_t pid = 0;
  const int failed = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (failed != 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    return -1;
  }
  return msSince(start);
}

/// Median wall milliseconds of `runs` runs of `argv` (processRunMs); -1 if one fails.
inline double processMs(const std::vector<std::string>& argv, int runs) {
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const double ms = processRunMs(argv);
    if (ms < 0) return -1;
    times.push_back(ms);
  }
  return percentile(times, 0.5);
}

/// The distinct sources of DATA_DIR/cgo17-amd.csv (247 for the paper's data), in sorted order.
inline std::vector<std::string> distinctPaperKernels(const std::string& dataDir) {
  std::set<std::string> distinct;
  for (const auto& row : data::readDevmapCsv(dataDir + "/cgo17-amd.csv")) distinct.insert(row.src);
  return {distinct.begin(), distinct.end()};
}

/// distinctPaperKernels, or `program`'s one-line error and exit status 2 when the data folder
/// cannot be read (a missing folder was an uncaught exception: an abort).
inline std::vector<std::string> distinctPaperKernelsOrExit(const std::string& dataDir,
                                                           const char* program) {
  try {
    return distinctPaperKernels(dataDir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    std::exit(2);
  }
}

}  // namespace deeptune::bench
