// Where the CLI finds the worker process that runs OpenCL for it (devices, measure).
#pragma once

#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/isolation.hpp"
#include "runtime/worker_process.hpp"

namespace deeptune::cli {

/// argv prefix of the worker: the lean `deeptune-measure-worker` beside this executable when it
/// is there, else this executable's hidden `__measure-worker`. The deeptune process itself never
/// initializes OpenCL: PoCL's own LLVM 15 crashes when libclang-cpp 14 (the rewriter) shares the
/// process, and a process with OpenCL initialized must not fork.
std::vector<std::string> measureWorkerCommand();

/// How the commands start workers: measureWorkerCommand(), `timeoutSeconds` per phase.
runtime::IsolationOptions workerIsolation(double timeoutSeconds);

}  // namespace deeptune::cli
