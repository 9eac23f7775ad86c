// deeptune validate --task coarsening: predict a kernel's coarsening factor, then run every factor
// on each device and report the predicted factor's speedup against the best one.
#include <iostream>

#include "api/coarsening_runs.hpp"
#include "api/factor_validation.hpp"
#include "api/predictor.hpp"
#include "data/option_values.hpp"
#include "rewriter/normalizer.hpp"
#include "runtime/isolation.hpp"
#include "runtime/runtime_error.hpp"
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
  RunValues run;
  // clang-format off
  options.add_options()
      ("task", po::value(&task), "coarsening")
      ("file", po::value(&input)->required(), "OpenCL source file")
      ("gsize", po::value(&gsize)->required(), "global size S before coarsening")
      ("kernel,k", po::value(&kernel), "the kernel (default: the file's only kernel)")
      ("wgsize", po::value(&run.wgsize)->default_value(0),
       "work-group size before coarsening (0: min(S, 256)); a multiple of 32")
      ("model", po::value(&modelPath), "coarsening model (default: the bundled one of --platform)")
      ("platform", po::value(&platform)->default_value("tahiti"),
       "bundled model: Tahiti, Cypress, Fermi or Kepler");
  // clang-format on
  addRunOptions(options, run, true);
  options.add_options()("json", "print one JSON object");
  SourceOptionValues sourceValues;
  po::variables_map vm;
  if (!parseWithSourceOptions(args, kUsage, options, sourceValues, vm, "file", 1)) return kExitOk;
  data::checkGlobalSize("validate", gsize);
  data::checkRunOptions("validate", run.timeout, run.runs, run.wgsize);
  if (run.wgsize % 32 != 0) {
    throw UsageError("validate: --wgsize must be a multiple of 32 (every factor up to 32)");
  }
  const data::SourceOptions sourceOptions = sourceValues.validated();
  if (modelPath.empty()) modelPath = api::findBundledCoarseningModel(platform);
  const std::string source = readTextFile(input);
  api::CoarseningPredictor predictor(modelPath);
  const api::FactorPrediction prediction = predictor.predict(source, input, kernel, sourceOptions);

  const runtime::IsolationOptions isolation = workerIsolation(run.timeout);
  const std::vector<runtime::DeviceInfo> devices =
      runtime::requireDevicesIsolated("validate", isolation);
  const api::FactorLaunch launch{gsize, static_cast<size_t>(run.wgsize), run.runs, 204,
                                 data::openClBuildFlags(sourceOptions, input)};
  std::string refusal;
  std::vector<runtime::FactorRun> results = api::runFactors(
      rewriter::Normalizer(), source, input, prediction.kernel, {1, 2, 4, 8, 16, 32}, sourceOptions,
      launch, devices.size(), isolation, [](size_t) { return true; }, refusal);
  if (results.empty()) {  // the transform refuses the kernel: nothing but factor 1 exists
    throw UsageError(refusal);
  }
  const api::FactorValidation validation =
      api::judgeFactors(input, modelPath, gsize, prediction, std::move(results), devices.size());
  std::cout << (vm.count("json") ? api::factorValidationJson(validation, devices) + "\n"
                                 : api::factorValidationText(validation, devices));
  if (!validation.judged()) {  // nothing to validate the prediction against: a failure, not a pass
    throw runtime::RuntimeError("validate: " + input + ": no device timed " + prediction.kernel +
                                " at factor 1 (see the statuses above)");
  }
  return kExitOk;
}

}  // namespace deeptune::cli
