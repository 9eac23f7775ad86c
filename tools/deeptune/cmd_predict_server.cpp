// deeptune __predict-server: the out-of-process predictor (api/prediction_service.hpp) on stdio.
#include <iostream>
#include <string>

#include "api/prediction_service.hpp"
#include "tools/deeptune/commands.hpp"

namespace deeptune::cli {

int runPredictServer(const Args& args) {
  po::options_description options("options");
  std::string modelPath, platform;
  options.add_options()("model", po::value(&modelPath), "model file")(
      "platform", po::value(&platform)->default_value("amd"), "bundled model: amd or nvidia");
  po::variables_map vm;
  if (!parseOptions(args,
                    "usage: deeptune __predict-server [--model M | --platform amd|nvidia]\n\n"
                    "The advisor's out-of-process predictor (not for people): reads one\n"
                    "request record per line on stdin (predict, kernel, transfer, wgsize, source,\n"
                    "build options; TAB-separated, escaped) and answers `ok kernel device\n"
                    "probability normalized-hash model-device` (the device name, empty for a\n"
                    "CPU/GPU model) or `error message` on stdout.",
                    options, {}, vm)) {
    return kExitOk;
  }
  return api::servePredictions(modelPath, platform, std::cin, std::cout) ? kExitOk : kExitBadInput;
}

}  // namespace deeptune::cli
