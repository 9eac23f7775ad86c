// deeptune validate --task coarsening: predict a kernel's coarsening factor, then run every factor
// on each device and report the predicted factor's speedup against the best one.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

#include "api/coarsening_runs.hpp"
#include "api/predictor.hpp"
#include "data/text_check.hpp"
#include "rewriter/normalizer.hpp"
#include "runtime/isolation.hpp"
#include "runtime/runtime_error.hpp"
#include "runtime/verdict.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/measure_output.hpp"
#include "tools/deeptune/worker_command.hpp"

namespace deeptune::cli {
namespace {

const char* kUsage =
    "usage: deeptune validate --task coarsening KERNEL.cl --gsize S [--kernel NAME]\n"
    "                         [--wgsize M] [--model M | --platform GPU] [--timeout T]\n"
    "                         [--runs R] [-D NAME[=VALUE]]... [-I DIR]... [--json]\n"
    "\n"
    "Predicts the kernel's thread-coarsening factor (bundled model of --platform: Tahiti,\n"
    "Cypress, Fermi or Kepler), then runs it at global size S coarsened by every factor of\n"
    "1, 2, 4, 8, 16, 32 on each OpenCL device (isolated, outputs checked against factor 1, as\n"
    "`measure --task coarsening`) and reports per device the predicted factor's speedup over\n"
    "factor 1 and over the best measured factor (kernel time, median).";

}  // namespace

int runValidateCoarsening(const Args& args) {
  po::options_description options("validate --task coarsening options");
  std::string task, input, kernel, modelPath, platform;
  size_t gsize = 0;
  long long wgsize = 0;
  double timeout = 60;
  int runs = 6;
  // clang-format off
  options.add_options()
      ("task", po::value(&task), "coarsening")
      ("file", po::value(&input)->required(), "OpenCL source file")
      ("gsize", po::value(&gsize)->required(), "global size S before coarsening")
      ("kernel,k", po::value(&kernel), "the kernel (default: the file's only kernel)")
      ("wgsize", po::value(&wgsize)->default_value(0),
       "work-group size before coarsening (0: min(S, 256)); a multiple of 32")
      ("model", po::value(&modelPath), "coarsening model (default: the bundled one of --platform)")
      ("platform", po::value(&platform)->default_value("tahiti"),
       "bundled model: Tahiti, Cypress, Fermi or Kepler")
      ("timeout", po::value(&timeout)->default_value(60), "seconds per build and per measurement")
      ("runs", po::value(&runs)->default_value(6), "timed runs after the warm-up (at least 5)")
      ("json", "print one JSON object");
  // clang-format on
  SourceOptionValues sourceValues;
  addSourceOptions(options, sourceValues);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, kUsage, options, positional, vm)) return kExitOk;
  if (gsize == 0 || gsize > (size_t{1} << 31)) {
    throw UsageError("validate: --gsize must be between 1 and 2^31");
  }
  checkRunOptions("validate", timeout, runs, wgsize);
  if (wgsize % 32 != 0) {
    throw UsageError("validate: --wgsize must be a multiple of 32 (every factor up to 32)");
  }
  const data::SourceOptions sourceOptions = sourceValues.validated();
  if (modelPath.empty()) modelPath = api::findBundledCoarseningModel(platform);
  const std::string source = readFile(input);
  data::requireTextFile(source, input);
  api::CoarseningPredictor predictor(modelPath);
  const api::FactorPrediction prediction = predictor.predict(source, input, kernel, sourceOptions);

  const runtime::IsolationOptions isolation = workerIsolation(timeout);
  const std::vector<runtime::DeviceInfo> devices = requireDevices("validate", isolation);
  api::FactorLaunch launch;
  launch.gsize = gsize;
  launch.wgsize = static_cast<size_t>(wgsize);
  launch.runs = runs;
  launch.buildFlags = openClBuildFlags(sourceOptions, input);
  std::string refusal;
  const std::vector<runtime::FactorRun> results = api::runFactors(
      rewriter::Normalizer(), source, input, prediction.kernel, {1, 2, 4, 8, 16, 32}, sourceOptions,
      launch, devices.size(), isolation, [](size_t) { return true; }, refusal);
  if (results.empty()) {  // the transform refuses the kernel: nothing but factor 1 exists
    throw UsageError(refusal);
  }
  const size_t predicted = static_cast<size_t>(prediction.factor);

  bool judged = false;
  nlohmann::json deviceRows = nlohmann::json::array();
  if (!vm.count("json")) {
    std::printf("%s:%s  gsize %zu\n", input.c_str(), prediction.kernel.c_str(), gsize);
    std::printf("  predicted  factor %zu (probability %.2f, %s)\n", predicted,
                prediction.probability, modelPath.c_str());
  }
  for (size_t d = 0; d < devices.size(); ++d) {
    const runtime::FactorVerdict v = runtime::judgeFactor(results, d, predicted);
    judged = judged || v.speedup.has_value();
    if (vm.count("json")) {
      nlohmann::json factors = nlohmann::json::array();
      for (size_t i = 0; i < results.size(); ++i) {
        const runtime::FactorRun& run = results[i];
        factors.push_back(
            {{"factor", run.factor},
             {"status", run.refusal.empty() ? runtime::statusName(run.devices[d].status)
                                            : std::string("REFUSED")},
             {"kernel_ns", v.ns[i] ? nlohmann::json(*v.ns[i]) : nlohmann::json(nullptr)}});
      }
      nlohmann::json row = {{"index", devices[d].index},
                            {"name", devices[d].name},
                            {"type", devices[d].type},
                            {"factors", factors},
                            {"note", v.note}};
      row["best_factor"] = v.best ? nlohmann::json(*v.best) : nlohmann::json(nullptr);
      row["speedup"] = v.speedup ? nlohmann::json(*v.speedup) : nlohmann::json(nullptr);
      row["of_oracle"] = v.ofOracle ? nlohmann::json(*v.ofOracle) : nlohmann::json(nullptr);
      deviceRows.push_back(row);
      continue;
    }
    std::string times;
    for (size_t i = 0; i < results.size(); ++i) {
      char text[64];
      if (v.ns[i]) {
        std::snprintf(text, sizeof text, "%zu: %.3f ms", results[i].factor, *v.ns[i] / 1e6);
      } else {
        std::snprintf(text, sizeof text, "%zu: %s", results[i].factor,
                      results[i].refusal.empty()
                          ? runtime::statusName(results[i].devices[d].status).c_str()
                          : "REFUSED");
      }
      times += (times.empty() ? "" : ", ") + std::string(text);
    }
    std::printf("  dev%d %-4s %s: %s\n", devices[d].index, devices[d].type.c_str(),
                devices[d].name.c_str(), times.c_str());
    if (v.speedup) {
      std::printf(
          "    verdict  factor %zu: %.2fx over factor 1, %.0f%% of the best factor's (%zu)"
          "%s%s\n",
          predicted, *v.speedup, 100 * *v.ofOracle, *v.best, v.note.empty() ? "" : "; ",
          v.note.c_str());
    } else {
      std::printf("    verdict  %s\n", v.note.c_str());
    }
  }
  if (vm.count("json")) {
    const nlohmann::json out = {{"file", input},          {"kernel", prediction.kernel},
                                {"gsize", gsize},         {"model", modelPath},
                                {"predicted", predicted}, {"probability", prediction.probability},
                                {"devices", deviceRows}};
    std::cout << out.dump() << "\n";
  }
  if (!judged) {  // nothing to validate the prediction against: a failure, not a pass
    throw runtime::RuntimeError("validate: " + input + ": no device timed " + prediction.kernel +
                                " at factor 1 (see the statuses above)");
  }
  return kExitOk;
}

}  // namespace deeptune::cli
