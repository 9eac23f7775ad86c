// deeptune validate: predict a kernel's device, then run it on every device and judge the choice.
#include <iostream>

#include "api/device_validation.hpp"
#include "api/predictor.hpp"
#include "data/option_values.hpp"
#include "runtime/isolation.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/measure_output.hpp"
#include "tools/deeptune/worker_command.hpp"

namespace deeptune::cli {
namespace {

const char* kUsage =
    "usage: deeptune validate [--task devmap] KERNEL.cl --gsize N [--kernel NAME] [--wgsize M]\n"
    "                         [-D NAME[=VALUE]]... [-I DIR]...\n"
    "                         [--model M | --platform amd|nvidia] [--timeout S] [--json]\n"
    "\n"
    "Runs each kernel of the file (or --kernel NAME) at global size N on every OpenCL device\n"
    "(payload rules of `deeptune measure`), asks the model for the device given the launch's\n"
    "transfer and work-group size, and reports whether the predicted device type was the\n"
    "fastest and the speed reached against the fastest (oracle) device.";

}  // namespace

int runValidate(const Args& args) {
  if (asksForTask(args, "coarsening")) {  // the coarsening task has its own options
    return runValidateCoarsening(args);
  }
  po::options_description options("validate options");
  std::string input, kernel, modelPath, platform, task = "devmap";
  size_t gsize = 0;
  RunValues run;
  // clang-format off
  options.add_options()
      ("task", po::value(&task), "devmap (default; these options) or coarsening (its own: help validate --task coarsening)")
      ("file", po::value(&input)->required(), "OpenCL source file")
      ("gsize", po::value(&gsize)->required(), "global size S (elements of each buffer)")
      ("kernel,k", po::value(&kernel), "only this kernel (default: every kernel of the file)")
      ("wgsize", po::value(&run.wgsize)->default_value(0), "work-group size (0: min(S, 256))")
      ("model", po::value(&modelPath), "model file (default: the bundled model of --platform)")
      ("platform", po::value(&platform)->default_value("amd"), "bundled model: amd or nvidia");
  // clang-format on
  addRunOptions(options, run);
  options.add_options()("json", "print one JSON object per kernel");
  SourceOptionValues sourceValues;
  po::variables_map vm;
  if (!parseWithSourceOptions(args, kUsage, options, sourceValues, vm, "file", 1)) return kExitOk;
  if (task != "devmap") {
    throw UsageError("validate: unknown --task '" + task + "' (devmap, coarsening)");
  }
  data::checkGlobalSize("validate", gsize);
  data::checkRunOptions("validate", run.timeout, 0, run.wgsize);
  const data::SourceOptions sourceOptions = sourceValues.validated();
  if (modelPath.empty()) modelPath = api::findBundledModel(platform);
  const std::string source = readTextFile(input);
  api::Predictor predictor(modelPath);  // loads and checks the model before any kernel runs
  // A kernel name the file does not define: the rewriter's answer, as in predict and rewrite.
  if (!kernel.empty()) predictor.predict(source, input, kernel, 0, 1, sourceOptions);

  const runtime::IsolationOptions isolation = workerIsolation(run.timeout);
  const std::vector<runtime::DeviceInfo> devices =
      runtime::requireDevicesIsolated("validate", isolation);
  const std::string missing = api::missingModelDevice(modelPath, predictor.modelDevices(), devices);
  if (!missing.empty()) throw UsageError(missing);
  const api::DeviceValidationLaunch launch{input,
                                           source,
                                           kernel,
                                           gsize,
                                           static_cast<size_t>(run.wgsize),
                                           data::openClBuildFlags(sourceOptions, input),
                                           sourceOptions};
  const bool json = vm.count("json") != 0;
  api::validateDevices(predictor, launch, devices, isolation, [&](const api::DeviceValidation& v) {
    std::cout << (json ? api::deviceValidationJson(v, launch, devices) + "\n"
                       : api::deviceValidationText(v, launch, devices));
  });
  return kExitOk;
}

}  // namespace deeptune::cli
