// The prediction service loop: one request record in, one answer record out, errors as records.
#include "api/prediction_service.hpp"

#include <cstdio>
#include <istream>
#include <memory>
#include <ostream>
#include <vector>

#include "api/predictor.hpp"
#include "runtime/line_record.hpp"

namespace deeptune::api {

bool servePredictions(const std::string& modelPath, const std::string& platform, std::istream& in,
                      std::ostream& out) {
  const auto send = [&out](const std::vector<std::string>& fields) {
    out << runtime::encodeRecord(fields) << '\n' << std::flush;
  };
  std::unique_ptr<Predictor> predictor;
  try {
    predictor =
        std::make_unique<Predictor>(modelPath.empty() ? findBundledModel(platform) : modelPath);
  } catch (const std::exception& e) {
    send({"error", e.what()});
    return false;
  }
  send({"ready", predictor->modelPath()});
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> request = runtime::decodeRecord(line);
    if (request.size() != 6 || request[0] != "predict") {
      send({"error", "prediction service: malformed request"});
      continue;
    }
    try {
      const Decision decision =
          predictor->predict(request[4], "launch source", request[1], std::stod(request[2]),
                             std::stod(request[3]), data::sourceOptionsFromBuildFlags(request[5]));
      char hash[24];
      std::snprintf(hash, sizeof hash, "%llx",
                    static_cast<unsigned long long>(decision.normalizedHash));
      send({"ok", decision.kernel, decision.deviceType, std::to_string(decision.probability), hash,
            decision.modelDevice, decision.method});
    } catch (const std::exception& e) {
      send({"error", e.what()});
    }
  }
  return true;
}

}  // namespace deeptune::api
