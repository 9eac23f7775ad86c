// PredictionClient: one-line requests to a `deeptune __predict-server` coprocess.
#include "api/prediction_client.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "api/api_error.hpp"
#include "api/library_paths.hpp"
#include "data/child_process.hpp"
#include "data/data_error.hpp"
#include "runtime/line_record.hpp"

namespace deeptune::api {
namespace {

namespace fs = std::filesystem;

/// The service's next record; throws ApiError when it ended, reports an error or gave no answer
/// within `timeoutSeconds`.
std::vector<std::string> answer(data::Coprocess& server, double timeoutSeconds) {
  std::optional<std::string> line;
  try {
    line = server.readLine(timeoutSeconds);
  } catch (const data::DataError& e) {  // no answer in time
    throw ApiError(e.what());
  }
  if (!line) throw ApiError("prediction service ended unexpectedly (see its stderr above)");
  std::vector<std::string> fields = runtime::decodeRecord(*line);
  if (fields[0] == "error") {
    throw ApiError(fields.size() > 1 ? fields[1] : "prediction service failed");
  }
  return fields;
}

}  // namespace

struct PredictionClient::Impl {
  std::vector<std::string> command;
  double timeoutSeconds;
  data::Coprocess server;
  Impl(const std::vector<std::string>& serverCommand, double timeout)
      : command(serverCommand), timeoutSeconds(timeout), server(serverCommand) {}
};

void PredictionClient::connect(const std::vector<std::string>& serverCommand,
                               double timeoutSeconds) {
  try {
    impl_ = std::make_unique<Impl>(serverCommand, timeoutSeconds);
  } catch (const data::DataError& e) {  // the service cannot start
    throw ApiError(e.what());
  }
  const std::vector<std::string> ready = answer(impl_->server, timeoutSeconds);
  if (ready[0] != "ready" || ready.size() < 2) {
    throw ApiError("prediction service: unexpected greeting '" + ready[0] + "'");
  }
  modelPath_ = ready[1];
}

PredictionClient::PredictionClient(const std::vector<std::string>& serverCommand,
                                   double timeoutSeconds) {
  connect(serverCommand, timeoutSeconds);
}

PredictionClient::~PredictionClient() = default;

Decision PredictionClient::predictDevice(const std::string& source, const std::string& kernel,
                                         uint64_t transferBytes, size_t wgsize,
                                         const std::string& buildOptions) {
  // In a process forked from the one that started the service, the service (and every answer
  // on its socket) is that process's: this one starts its own.
  if (!impl_->server.ownedByThisProcess()) connect(impl_->command, impl_->timeoutSeconds);
  try {
    impl_->server.writeLine(runtime::encodeRecord({"predict", kernel, std::to_string(transferBytes),
                                                   std::to_string(wgsize), source, buildOptions}));
  } catch (const data::DataError& e) {  // the service is gone
    throw ApiError(e.what());
  }
  const std::vector<std::string> fields = answer(impl_->server, impl_->timeoutSeconds);
  if (fields[0] != "ok" || fields.size() != 7) {
    throw ApiError("prediction service: malformed answer '" + fields[0] + "'");
  }
  // The service is another process: check what it says before acting on it.
  char* end = nullptr;
  const double probability = std::strtod(fields[3].c_str(), &end);
  if (fields[2] != "CPU" && fields[2] != "GPU") {
    throw ApiError("prediction service: unknown device '" + fields[2] + "'");
  }
  if (end == fields[3].c_str() || *end != '\0' || !(probability >= 0.0 && probability <= 1.0)) {
    throw ApiError("prediction service: probability '" + fields[3] + "' is not in [0, 1]");
  }
  Decision decision;
  decision.kernel = fields[1];
  decision.deviceType = fields[2];
  decision.probability = probability;
  decision.normalizedHash = std::strtoull(fields[4].c_str(), nullptr, 16);
  decision.modelDevice = fields[5];  // a device name or empty; only ever compared with names
  if (fields[6] != "deeptune" && fields[6] != "source-boosted") {
    throw ApiError("prediction service: unknown predictor '" + fields[6] + "'");
  }
  decision.method = fields[6];
  return decision;
}

std::string findDeeptuneExecutable(const std::string& explicitPath) {
  std::vector<fs::path> candidates;
  if (!explicitPath.empty()) {
    candidates.push_back(explicitPath);
  } else {
    if (const char* path = std::getenv("DEEPTUNE_EXECUTABLE")) candidates.push_back(path);
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) candidates.push_back(self.parent_path() / "deeptune");
    const fs::path bin = installedBinDir();
    if (!bin.empty()) candidates.push_back(bin / "deeptune");
    if (const char* path = std::getenv("PATH")) {
      std::string folders = path;
      for (size_t start = 0; start <= folders.size();) {
        const size_t end = std::min(folders.find(':', start), folders.size());
        if (end > start)
          candidates.push_back(fs::path(folders.substr(start, end - start)) / "deeptune");
        start = end + 1;
      }
    }
  }
  std::string looked;
  for (const fs::path& candidate : candidates) {
    if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) {
      return candidate.string();
    }
    looked += (looked.empty() ? "" : ", ") + candidate.string();
  }
  throw ApiError("cannot find the deeptune executable for predictions (looked at " + looked +
                 "; set DEEPTUNE_EXECUTABLE)");
}

}  // namespace deeptune::api
