// deeptune __measure-worker (and the deeptune-measure-worker executable): serves one measure
// request in a fresh process and writes its records to stdout for the parent.
#include "runtime/worker_process.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/worker_command.hpp"

namespace deeptune::cli {

std::vector<std::string> measureWorkerCommand() {
  return runtime::workerBesideSelf("deeptune-measure-worker",
                                   {"/proc/self/exe", "__measure-worker"});
}

runtime::IsolationOptions workerIsolation(double timeoutSeconds) {
  runtime::IsolationOptions isolation;
  isolation.workerCommand = measureWorkerCommand();
  isolation.timeoutSeconds = timeoutSeconds;
  return isolation;
}

int runMeasureWorker(const Args& args) {
  if (args.size() != 1) throw UsageError("__measure-worker: expected one request file");
  runtime::serveRequestFile(args[0]);
  return kExitOk;
}

}  // namespace deeptune::cli
