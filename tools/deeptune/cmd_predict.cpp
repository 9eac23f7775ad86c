// deeptune predict: CPU or GPU for kernel launches, or their coarsening factors, with a model.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

#include "api/predictor.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/each_input.hpp"
#include "tools/deeptune/predict_launches.hpp"

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

/// predict --task coarsening for one file: the factor, and every factor's probability with --json.
void predictFactor(api::CoarseningPredictor& predictor, std::string& input,
                   const std::string& kernel, const data::SourceOptions& sourceOptions, bool json) {
  const std::string& modelPath = predictor.modelPath();
  const std::string source = readInputArgument(input);
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
}

/// predict (devmap) for one file and launch: the device and its probability.
void predictDevice(api::Predictor& predictor, const std::string& modelPath, std::string& input,
                   const std::string& kernel, double dsize, double wgsize,
                   const data::SourceOptions& sourceOptions, bool json) {
  const std::string source = readInputArgument(input);
  const api::Decision prediction =
      predictor.predict(source, input, kernel, dsize, wgsize, sourceOptions);
  if (json) {
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
}

}  // namespace

int runPredict(const Args& args) {
  po::options_description options("predict options");
  std::vector<std::string> inputs;
  std::string kernel, modelPath, platform, task, launches;
  double dsize = 0, wgsize = 0;
  options.add_options()("file", po::value(&inputs), "OpenCL source files ('-': standard input)")(
      "task", po::value(&task)->default_value("devmap"),
      "devmap (CPU or GPU for a launch) or coarsening (the thread-coarsening factor)")(
      "dsize", po::value(&dsize), "devmap: bytes the launch moves (the data's `transfer`)")(
      "wgsize", po::value(&wgsize), "devmap: work-group size")(
      "launches", po::value(&launches),
      "devmap: a CSV of launches (columns file, dsize or transfer, wgsize; optional kernel,\n"
      "build_options), decided as CSV (or JSON Lines with --json)")(
      "kernel,k", po::value(&kernel), "kernel to predict (default: each file's only kernel)")(
      "model", po::value(&modelPath), "model file (default: the bundled model of --platform)")(
      "platform", po::value(&platform),
      "bundled model: devmap: amd (default; i7-3820 + AMD Tahiti 7970) or nvidia (same CPU +\n"
      "GTX 970); coarsening: Tahiti (default), Cypress, Fermi or Kepler")(
      "json", "print one JSON object per kernel (JSON Lines)");
  SourceOptionValues sourceValues;
  addSourceOptions(options, sourceValues);
  po::positional_options_description positional;
  positional.add("file", -1);
  po::variables_map vm;
  if (!parseOptions(
          args,
          "usage: deeptune predict KERNEL.cl... --dsize BYTES --wgsize N [--kernel NAME]\n"
          "                        [-D NAME[=VALUE]]... [-I DIR]...\n"
          "                        [--model M | --platform amd|nvidia] [--json]\n"
          "       deeptune predict --launches LAUNCHES.csv [--model M | --platform P]\n"
          "                        [--json]\n"
          "       deeptune predict --task coarsening KERNEL.cl... [--kernel NAME]\n"
          "                        [--model M | --platform GPU] [--json]\n\n"
          "Rewrites each kernel, tokenizes it and predicts whether it runs faster on the\n"
          "CPU or the GPU, or (--task coarsening) its thread-coarsening factor: one\n"
          "result per file, in order. A file that fails gets its error line and the\n"
          "others still run (exit 2 at the end, with a summary line).",
          options, positional, vm)) {
    return kExitOk;
  }
  const bool json = vm.count("json") != 0;
  if (task == "coarsening") {
    if (vm.count("dsize") || vm.count("wgsize") || vm.count("launches")) {
      throw UsageError("predict: --dsize, --wgsize and --launches are for --task devmap");
    }
    if (inputs.empty()) throw UsageError("predict: no kernel file given");
    const data::SourceOptions sourceOptions = sourceValues.validated();
    if (modelPath.empty()) {
      modelPath = api::findBundledCoarseningModel(platform.empty() ? "tahiti" : platform);
    }
    api::CoarseningPredictor predictor(modelPath);
    return forEachInput("predict", inputs, [&](std::string& input) {
      predictFactor(predictor, input, kernel, sourceOptions, json);
    });
  }
  if (task != "devmap") {
    throw UsageError("predict: unknown --task '" + task + "' (devmap or coarsening)");
  }
  if (modelPath.empty()) modelPath = api::findBundledModel(platform.empty() ? "amd" : platform);
  if (vm.count("launches")) {
    if (!inputs.empty() || vm.count("dsize") || vm.count("wgsize") || vm.count("kernel") ||
        !sourceValues.defines.empty() || !sourceValues.includeDirs.empty()) {
      throw UsageError(
          "predict: --launches takes every launch from its file (no FILE, --dsize, --wgsize, "
          "--kernel, -D or -I beside it)");
    }
    return predictLaunches(launches, modelPath, json);
  }
  if (!vm.count("dsize") || !vm.count("wgsize")) {
    throw UsageError("predict: --dsize and --wgsize are required for --task devmap");
  }
  if (inputs.empty()) throw UsageError("predict: no kernel file given");
  api::checkLaunchSizes(dsize, wgsize);
  const data::SourceOptions sourceOptions = sourceValues.validated();
  api::Predictor predictor(modelPath);
  return forEachInput("predict", inputs, [&](std::string& input) {
    predictDevice(predictor, modelPath, input, kernel, dsize, wgsize, sourceOptions, json);
  });
}

}  // namespace deeptune::cli
