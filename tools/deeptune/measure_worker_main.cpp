// deeptune-measure-worker: the lean worker process of `deeptune measure` (runtime only, no
// Clang/LLVM 14 and no LibTorch, which would share the process with the OpenCL driver's own LLVM).
#include <iostream>

#include "runtime/runtime_error.hpp"
#include "tools/deeptune/commands.hpp"

int main(int argc, char** argv) {
  using namespace deeptune;
  try {
    return cli::runMeasureWorker(cli::Args(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::cerr << "deeptune-measure-worker: " << e.what() << "\n";
    return cli::kExitFailure;
  }
}
