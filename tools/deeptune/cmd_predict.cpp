// deeptune predict: CPU or GPU for kernel launches, or their coarsening factors, with a model.
#include <cstdio>
#include <iostream>

#include "api/launch_predictions.hpp"
#include "api/prediction_report.hpp"
#include "api/predictor.hpp"
#include "data/progress_printer.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/each_input.hpp"

namespace deeptune::cli {
namespace {

/// The notes both tasks print on stderr: names declared nowhere, characters the model ignored.
void printReadingNotes(const std::string& input, const std::vector<std::string>& undeclared,
                       size_t skipped) {
  printUndeclaredNote(input, undeclared);
  if (skipped > 0) {
    std::fprintf(stderr, "note: %zu characters outside the model's vocabulary were ignored\n",
                 skipped);
  }
}

/// Characters the model ignored, over every kernel answered for one file.
template <typename Prediction>
size_t skippedCharacters(const std::vector<Prediction>& predictions) {
  size_t skipped = 0;
  for (const Prediction& prediction : predictions) skipped += prediction.skippedCharacters;
  return skipped;
}

/// predict --task coarsening for one file: the factor of `kernel`, or of every kernel in source
/// order, and every factor's probability with --json.
void predictFactor(api::CoarseningPredictor& predictor, std::string& input,
                   const std::string& kernel, const data::SourceOptions& sourceOptions, bool json) {
  const std::string source = readInputArgument(input);
  const std::vector<api::FactorPrediction> predictions =
      kernel.empty() ? predictor.predictEach(source, input, sourceOptions)
                     : std::vector{predictor.predict(source, input, kernel, sourceOptions)};
  for (const api::FactorPrediction& prediction : predictions) {
    if (json) {
      std::cout << api::factorPredictionJson(prediction, input, predictor.modelPath()) << "\n";
    } else {
      std::cout << api::factorPredictionText(prediction);
    }
  }
  if (!json) {
    printReadingNotes(input, predictions.front().undeclared, skippedCharacters(predictions));
  }
}

/// predict (devmap) for one file and launch: the device and its probability, for `kernel` or
/// for every kernel in source order.
void predictDevice(api::Predictor& predictor, const std::string& modelPath, std::string& input,
                   const std::string& kernel, double dsize, double wgsize,
                   const data::SourceOptions& sourceOptions, bool json) {
  const std::string source = readInputArgument(input);
  const std::vector<api::Decision> predictions =
      kernel.empty()
          ? predictor.predictEach(source, input, dsize, wgsize, sourceOptions)
          : std::vector{predictor.predict(source, input, kernel, dsize, wgsize, sourceOptions)};
  for (const api::Decision& prediction : predictions) {
    if (json) {
      std::cout << api::decisionJson(prediction, input, modelPath, predictor, dsize, wgsize)
                << "\n";
    } else {
      std::cout << api::decisionText(prediction, predictor);
    }
  }
  if (!json) {
    printReadingNotes(input, predictions.front().undeclared, skippedCharacters(predictions));
  }
}

constexpr size_t kProgressFrom = 50;  ///< launches from which --launches shows progress
constexpr size_t kProgressEvery = 50;

/// predict --launches: one CSV row (or JSON object) per launch, in file order; a row that fails
/// gets its error line and the others still run (exit 2 at the end, with a summary line).
int predictLaunches(const std::string& path, const std::string& modelPath, bool json) {
  api::LaunchTable table(path);
  api::Predictor predictor(modelPath);
  if (!json) std::cout << api::launchCsvHeader();
  data::ProgressPrinter progress;
  const size_t rows = table.size();
  size_t failed = 0;
  for (size_t r = 0; r < rows; ++r) {
    try {
      const api::LaunchDecision launch = table.decide(r, predictor);
      std::cout << (json ? api::launchJson(launch) + "\n" : api::launchCsvRow(launch));
    } catch (const std::exception& e) {
      if (exitCodeOf(e) != kExitBadInput) throw;
      std::cout.flush();
      std::cerr << "deeptune: " << e.what() << "\n";
      ++failed;
    }
    if (rows >= kProgressFrom && ((r + 1) % kProgressEvery == 0 || r + 1 == rows)) {
      progress.update(std::to_string(r + 1) + "/" + std::to_string(rows) + " launches (" +
                          std::to_string(table.kernelFiles()) + " kernel files)",
                      r + 1 == rows);
    }
  }
  if (failed == 0) return kExitOk;
  std::cerr << "deeptune: predict: " << failed << " of " << rows << " launches failed\n";
  return kExitBadInput;
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
      "dsize", po::value(&dsize),
      "devmap: bytes the launch moves between host and device: each input buffer once, each "
      "output buffer twice (SPEC.md section 4; the data's `transfer`)")(
      "wgsize", po::value(&wgsize), "devmap: work-group size")(
      "launches", po::value(&launches),
      "devmap: a CSV of launches with a header row: file, dsize or transfer, wgsize; optional "
      "kernel, build_options (e.g. kernels/launches.csv); decided as CSV (or JSON Lines with "
      "--json)")("kernel,k", po::value(&kernel),
                 "kernel to predict (default: every kernel of each file)")(
      "model", po::value(&modelPath), "model file (default: the bundled model of --platform)")(
      "platform", po::value(&platform),
      "bundled model: devmap: amd (default; i7-3820 + AMD Tahiti 7970) or nvidia (same CPU +\n"
      "GTX 970); coarsening: Tahiti (default), Cypress, Fermi or Kepler")(
      "json", "print one JSON object per kernel (JSON Lines)");
  SourceOptionValues sourceValues;
  po::variables_map vm;
  if (!parseWithSourceOptions(
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
          "result per kernel (each file's kernels in source order; --kernel picks one),\n"
          "files in order. A file that fails gets its error line and the others still\n"
          "run (exit 2 at the end, with a summary line).",
          options, sourceValues, vm)) {
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
  // What is missing first: the file, then the sizes (issue 45).
  if (inputs.empty()) {
    throw UsageError(
        "predict: no kernel file given (deeptune predict FILE.cl --dsize BYTES --wgsize N, or "
        "--launches CSV)");
  }
  if (!vm.count("dsize") || !vm.count("wgsize")) {
    throw UsageError("predict: --dsize and --wgsize are required for --task devmap");
  }
  api::checkLaunchSizes(dsize, wgsize);
  const data::SourceOptions sourceOptions = sourceValues.validated();
  api::Predictor predictor(modelPath);
  return forEachInput("predict", inputs, [&](std::string& input) {
    predictDevice(predictor, modelPath, input, kernel, dsize, wgsize, sourceOptions, json);
  });
}

}  // namespace deeptune::cli
