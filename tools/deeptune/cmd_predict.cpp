// deeptune predict: CPU or GPU for one kernel launch, or its coarsening factor, with a model.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

#include "api/predictor.hpp"
#include "tools/deeptune/commands.hpp"

namespace deeptune::cli {
namespace {

/// The fields both tasks' --json share: what the model read of the file.
nlohmann::json readingFields(const std::string& input, const std::string& kernel,
                             const std::string& modelPath, size_t tokens, size_t skipped,
                             const std::vector<std::string>& undeclared) {
  return {{"file", input},
          {"kernel", kernel},
          {"model", modelPath},
          {"tokens", tokens},
          {"skipped_characters", skipped},
          {"undeclared", undeclared}};
}

/// The notes both tasks print on stderr: names declared nowhere, characters the model ignored.
void printReadingNotes(const std::string& input, const std::vector<std::string>& undeclared,
                       size_t skipped) {
  printUndeclaredNote(input, undeclared);
  if (skipped > 0) {
    std::fprintf(stderr, "note: %zu characters outside the model's vocabulary were ignored\n",
                 skipped);
  }
}

/// predict --task coarsening: the factor, and every factor's probability with --json.
int predictFactor(std::string input, const std::string& kernel, std::string modelPath,
                  const std::string& platform, const data::SourceOptions& sourceOptions,
                  bool json) {
  if (modelPath.empty()) modelPath = api::findBundledCoarseningModel(platform);
  const std::string source = readInputArgument(input);
  api::CoarseningPredictor predictor(modelPath);
  const api::FactorPrediction prediction = predictor.predict(source, input, kernel, sourceOptions);
  if (json) {
    nlohmann::json probabilities = nlohmann::json::array();
    for (const auto& [factor, probability] : prediction.probabilities) {
      probabilities.push_back({{"factor", factor}, {"probability", probability}});
    }
    nlohmann::json result = readingFields(input, prediction.kernel, modelPath, prediction.tokens,
                                          prediction.skippedCharacters, prediction.undeclared);
    result["factor"] = prediction.factor;
    result["probability"] = prediction.probability;
    result["probabilities"] = probabilities;
    std::cout << result.dump() << "\n";
  } else {
    std::printf("%s: coarsening factor %d (probability %.2f)\n", prediction.kernel.c_str(),
                prediction.factor, prediction.probability);
    printReadingNotes(input, prediction.undeclared, prediction.skippedCharacters);
  }
  return kExitOk;
}

}  // namespace

int runPredict(const Args& args) {
  po::options_description options("predict options");
  std::string input, kernel, modelPath, platform, task;
  double dsize = 0, wgsize = 0;
  options.add_options()("file", po::value(&input)->required(), "OpenCL source file")(
      "task", po::value(&task)->default_value("devmap"),
      "devmap (CPU or GPU for a launch) or coarsening (the thread-coarsening factor)")(
      "dsize", po::value(&dsize), "devmap: bytes the launch moves (the data's `transfer`)")(
      "wgsize", po::value(&wgsize), "devmap: work-group size")(
      "kernel,k", po::value(&kernel), "kernel to predict (default: the file's only kernel)")(
      "model", po::value(&modelPath), "model file (default: the bundled model of --platform)")(
      "platform", po::value(&platform),
      "bundled model: devmap: amd (default; i7-3820 + AMD Tahiti 7970) or nvidia (same CPU +\n"
      "GTX 970); coarsening: Tahiti (default), Cypress, Fermi or Kepler")("json",
                                                                          "print one JSON object");
  SourceOptionValues sourceValues;
  addSourceOptions(options, sourceValues);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args,
                    "usage: deeptune predict KERNEL.cl --dsize BYTES --wgsize N [--kernel NAME]\n"
                    "                        [-D NAME[=VALUE]]... [-I DIR]...\n"
                    "                        [--model M | --platform amd|nvidia] [--json]\n"
                    "       deeptune predict --task coarsening KERNEL.cl [--kernel NAME]\n"
                    "                        [--model M | --platform GPU] [--json]\n\n"
                    "Rewrites the kernel, tokenizes it and predicts whether it runs faster on the\n"
                    "CPU or the GPU, or (--task coarsening) its thread-coarsening factor.",
                    options, positional, vm)) {
    return kExitOk;
  }
  if (task == "coarsening") {
    if (vm.count("dsize") || vm.count("wgsize")) {
      throw UsageError("predict: --dsize and --wgsize are for --task devmap");
    }
    return predictFactor(input, kernel, modelPath, platform.empty() ? "tahiti" : platform,
                         sourceValues.validated(), vm.count("json") != 0);
  }
  if (task != "devmap") {
    throw UsageError("predict: unknown --task '" + task + "' (devmap or coarsening)");
  }
  if (!vm.count("dsize") || !vm.count("wgsize")) {
    throw UsageError("predict: --dsize and --wgsize are required for --task devmap");
  }
  api::checkLaunchSizes(dsize, wgsize);
  const data::SourceOptions sourceOptions = sourceValues.validated();
  if (modelPath.empty()) modelPath = api::findBundledModel(platform.empty() ? "amd" : platform);
  const std::string source = readInputArgument(input);
  api::Predictor predictor(modelPath);
  const api::Decision prediction =
      predictor.predict(source, input, kernel, dsize, wgsize, sourceOptions);
  if (vm.count("json")) {
    nlohmann::json result = readingFields(input, prediction.kernel, modelPath, prediction.tokens,
                                          prediction.skippedCharacters, prediction.undeclared);
    result["device"] = prediction.deviceType;
    if (!prediction.modelDevice.empty()) result["device_name"] = prediction.modelDevice;
    result["probability"] = prediction.probability;
    result["networks"] = predictor.networks();
    result["head"] = predictor.boostedHeads() ? "boosted-trees" : "network";
    result["dsize"] = dsize;
    result["wgsize"] = wgsize;
    std::cout << result.dump() << "\n";
  } else {
    const std::string ensemble =
        predictor.networks() > 1
            ? ", the mean of " + std::to_string(predictor.networks()) + " networks'"
            : "";
    const std::string device = prediction.modelDevice.empty()
                                   ? prediction.deviceType
                                   : prediction.modelDevice + " (" + prediction.deviceType + ")";
    std::printf("%s: %s (probability %.2f%s)\n", prediction.kernel.c_str(), device.c_str(),
                prediction.probability, ensemble.c_str());
    printReadingNotes(input, prediction.undeclared, prediction.skippedCharacters);
  }
  return kExitOk;
}

}  // namespace deeptune::cli
