// deeptune __predict-server: answers the launcher's device questions over stdin/stdout records.
#include <cstdio>
#include <iostream>
#include <string>

#include "api/predictor.hpp"
#include "runtime/line_record.hpp"
#include "tools/deeptune/commands.hpp"

namespace deeptune::cli {
namespace {

void send(const std::vector<std::string>& fields) {
  std::cout << runtime::encodeRecord(fields) << '\n' << std::flush;
}

}  // namespace

int runPredictServer(const Args& args) {
  po::options_description options("options");
  std::string modelPath, platform;
  options.add_options()("model", po::value(&modelPath), "model file")(
      "platform", po::value(&platform)->default_value("amd"), "bundled model: amd or nvidia");
  po::variables_map vm;
  if (!parseOptions(args,
                    "usage: deeptune __predict-server [--model M | --platform amd|nvidia]\n\n"
                    "The launcher library's prediction service (not for people): reads one\n"
                    "request record per line on stdin (predict, kernel, transfer, wgsize, source,\n"
                    "build options; TAB-separated, escaped) and answers `ok kernel device\n"
                    "probability normalized-hash` or `error message` on stdout.",
                    options, {}, vm)) {
    return kExitOk;
  }
  std::unique_ptr<api::Predictor> predictor;
  try {
    if (modelPath.empty()) modelPath = api::findBundledModel(platform);
    predictor = std::make_unique<api::Predictor>(modelPath);
  } catch (const std::exception& e) {
    send({"error", e.what()});
    return kExitBadInput;
  }
  send({"ready", predictor->modelPath()});
  std::string line;
  while (std::getline(std::cin, line)) {
    const std::vector<std::string> request = runtime::decodeRecord(line);
    if (request.size() != 6 || request[0] != "predict") {
      send({"error", "prediction service: malformed request"});
      continue;
    }
    try {
      const api::Decision decision =
          predictor->predict(request[4], "launch source", request[1], std::stod(request[2]),
                             std::stod(request[3]), data::sourceOptionsFromBuildFlags(request[5]));
      char hash[24];
      std::snprintf(hash, sizeof hash, "%llx",
                    static_cast<unsigned long long>(decision.normalizedHash));
      send(
          {"ok", decision.kernel, decision.deviceType, std::to_string(decision.probability), hash});
    } catch (const std::exception& e) {
      send({"error", e.what()});
    }
  }
  return kExitOk;
}

}  // namespace deeptune::cli
