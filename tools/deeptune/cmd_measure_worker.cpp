// deeptune __measure-worker (and the deeptune-measure-worker executable): serves one measure
// request in a fresh process and writes its records to stdout for the parent.
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <string>

#include "runtime/isolation.hpp"
#include "runtime/runtime_error.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/worker_command.hpp"

namespace deeptune::cli {

std::vector<std::string> measureWorkerCommand() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path sibling = self.parent_path() / "deeptune-measure-worker";
    if (std::filesystem::is_regular_file(sibling, ec)) return {sibling.string()};
  }
  return {"/proc/self/exe", "__measure-worker"};
}

runtime::IsolationOptions workerIsolation(double timeoutSeconds) {
  runtime::IsolationOptions isolation;
  isolation.workerCommand = measureWorkerCommand();
  isolation.timeoutSeconds = timeoutSeconds;
  return isolation;
}

std::vector<runtime::DeviceInfo> requireDevices(const std::string& command,
                                                const runtime::IsolationOptions& isolation) {
  std::vector<runtime::DeviceInfo> devices = runtime::listDevicesIsolated(isolation);
  if (devices.empty()) throw runtime::RuntimeError(command + ": no OpenCL device found");
  return devices;
}

int runMeasureWorker(const Args& args) {
  if (args.size() != 1) throw UsageError("__measure-worker: expected one request file");
  // Die with the parent (a killed `measure` must not leave a spinning kernel behind).
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Records go to the original stdout; anything else written to stdout (kernel printf, driver
  // chatter) goes to stderr so it cannot corrupt them.
  const int records = ::dup(STDOUT_FILENO);
  if (records < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    throw runtime::RuntimeError("__measure-worker: cannot redirect stdout");
  }
  const runtime::MeasureRequest request = runtime::decodeRequest(readFile(args[0]));
  std::remove(args[0].c_str());  // read once: no leftover if the parent is killed
  runtime::serveRequest(request, [records](const std::string& record) {
    const std::string line = record + "\n";
    size_t done = 0;
    while (done < line.size()) {
      const ssize_t n = ::write(records, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw runtime::RuntimeError("__measure-worker: the parent stopped reading");
      done += static_cast<size_t>(n);
    }
  });
  return kExitOk;
}

}  // namespace deeptune::cli
