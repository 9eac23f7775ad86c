// The worker side of isolated measurements as a process: serves one request file, writing its
// records to the parent through the process's standard output.
#include "runtime/worker_process.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "data/file_io.hpp"
#include "runtime/runtime_error.hpp"

namespace deeptune::runtime {

void serveRequestFile(const std::string& path) {
  // Die with the parent (a killed `measure` must not leave a spinning kernel behind).
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Records go to the original stdout; anything else written to stdout (kernel printf, driver
  // chatter) goes to stderr so it cannot corrupt them.
  const int records = ::dup(STDOUT_FILENO);
  if (records < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    throw RuntimeError("__measure-worker: cannot redirect stdout");
  }
  const std::string text = path == "-" ? data::readStandardInput(data::kMaxSourceBytes)
                                       : data::readFileBytes(path, data::kMaxSourceBytes);
  const MeasureRequest request = decodeRequest(text);
  std::remove(path.c_str());  // read once: no leftover if the parent is killed
  serveRequest(request, [records](const std::string& record) {
    const std::string line = record + "\n";
    size_t done = 0;
    while (done < line.size()) {
      const ssize_t n = ::write(records, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw RuntimeError("__measure-worker: the parent stopped reading");
      done += static_cast<size_t>(n);
    }
  });
}

std::vector<DeviceInfo> requireDevicesIsolated(const std::string& command,
                                               const IsolationOptions& isolation) {
  std::vector<DeviceInfo> devices = listDevicesIsolated(isolation);
  if (devices.empty()) throw RuntimeError(command + ": no OpenCL device found");
  return devices;
}

std::vector<std::string> workerBesideSelf(const std::string& program,
                                          const std::vector<std::string>& fallback) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path sibling = self.parent_path() / program;
    if (std::filesystem::is_regular_file(sibling, ec)) return {sibling.string()};
  }
  return fallback;
}

}  // namespace deeptune::runtime
