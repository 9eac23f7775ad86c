// deeptune predict: CPU or GPU for one kernel launch, with a bundled or given model.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

#include "api/predictor.hpp"
#include "tools/deeptune/commands.hpp"

namespace deeptune::cli {

int runPredict(const Args& args) {
  po::options_description options("predict options");
  std::string input, kernel, modelPath, platform;
  double dsize = 0, wgsize = 0;
  options.add_options()("file", po::value(&input)->required(), "OpenCL source file")(
      "dsize", po::value(&dsize)->required(), "bytes the launch moves (the data's `transfer`)")(
      "wgsize", po::value(&wgsize)->required(), "work-group size")(
      "kernel,k", po::value(&kernel), "kernel to predict (default: the file's only kernel)")(
      "model", po::value(&modelPath), "model file (default: the bundled model of --platform)")(
      "platform", po::value(&platform)->default_value("amd"),
      "bundled model: amd (i7-3820 + AMD Tahiti 7970) or nvidia (same CPU + GTX 970)")(
      "json", "print one JSON object");
  SourceOptionValues sourceValues;
  addSourceOptions(options, sourceValues);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args,
                    "usage: deeptune predict KERNEL.cl --dsize BYTES --wgsize N [--kernel NAME]\n"
                    "                        [-D NAME[=VALUE]]... [-I DIR]...\n"
                    "                        [--model M | --platform amd|nvidia] [--json]\n\n"
                    "Rewrites the kernel, tokenizes it and predicts whether it runs faster on the\n"
                    "CPU or the GPU.",
                    options, positional, vm)) {
    return kExitOk;
  }
  api::checkLaunchSizes(dsize, wgsize);
  const data::SourceOptions sourceOptions = sourceValues.validated();
  if (modelPath.empty()) modelPath = api::findBundledModel(platform);
  const std::string source = readFile(input);
  api::Predictor predictor(modelPath);
  const api::DevicePrediction prediction =
      predictor.predict(source, input, kernel, dsize, wgsize, sourceOptions);
  if (vm.count("json")) {
    const nlohmann::json result = {{"file", input},
                                   {"kernel", prediction.kernel},
                                   {"device", prediction.device},
                                   {"probability", prediction.probability},
                                   {"dsize", dsize},
                                   {"wgsize", wgsize},
                                   {"model", modelPath},
                                   {"tokens", prediction.tokens},
                                   {"skipped_characters", prediction.skippedCharacters},
                                   {"undeclared", prediction.undeclared}};
    std::cout << result.dump() << "\n";
  } else {
    std::printf("%s: %s (probability %.2f)\n", prediction.kernel.c_str(), prediction.device.c_str(),
                prediction.probability);
    printUndeclaredNote(input, prediction.undeclared);
    if (prediction.skippedCharacters > 0) {
      std::fprintf(stderr, "note: %zu characters outside the model's vocabulary were ignored\n",
                   prediction.skippedCharacters);
    }
  }
  return kExitOk;
}

}  // namespace deeptune::cli
