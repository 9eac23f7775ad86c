// `deeptune predict` on one small kernel as a whole process, beside `deeptune --version` and
// `clang-15 --version` (the baseline: a program that loads Clang/LLVM 15's shared libraries).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/bench_common.hpp"

using deeptune::bench::percentile;
using deeptune::bench::processRunMs;

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 10;
  if (runs < 1 || runs > 10000) {
    std::fprintf(stderr, "usage: bench_cli_start [RUNS (1 to 10000, default 10)]\n");
    return 2;
  }
  const std::string cli = DEEPTUNE_BENCH_CLI;
  const std::string kernel = std::string(DEEPTUNE_BENCH_SOURCE_DIR) + "/kernels/saxpy.cl";
  struct Command {
    const char* label;
    std::vector<std::string> argv;
    std::vector<double> ms;
  };
  std::vector<Command> commands = {
      {"deeptune predict saxpy.cl", {cli, "predict", kernel, "--dsize", "4096", "--wgsize", "64"}},
      {"deeptune --version", {cli, "--version"}},
      {"baseline: clang-15 --version", {"clang-15", "--version"}},
  };
  // Round-robin, one run of each in turn: a machine that speeds up or slows down meanwhile
  // (other work, frequency) weighs on all three alike.
  for (int r = 0; r < runs; ++r) {
    for (Command& command : commands) {
      const double ms = processRunMs(command.argv);
      if (ms < 0) {
        std::fprintf(stderr, "bench_cli_start: %s failed\n", command.argv[0].c_str());
        return 1;
      }
      command.ms.push_back(ms);
    }
  }
  std::printf("whole processes, exec to exit, %d runs each (round-robin)\n", runs);
  std::printf("  %-32s %9s %9s %9s\n", "", "median", "min", "max");
  for (const Command& command : commands) {
    std::printf("  %-32s %9.1f %9.1f %9.1f ms\n", command.label, percentile(command.ms, 0.5),
                percentile(command.ms, 0.0), percentile(command.ms, 1.0));
  }
  const double predict = percentile(commands[0].ms, 0.5);
  const double clang = percentile(commands[2].ms, 0.5);
  std::printf("  ratio predict / clang-15 --version (medians): %.2fx\n", predict / clang);
  std::printf("  issue 31's bar: median at most 50 ms and below clang-15 --version: %s\n",
              predict <= 50 && predict < clang ? "holds" : "missed");
  return 0;
}
