// deeptune validate: predict a kernel's device, then run it on every device and judge the choice.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

#include "api/predictor.hpp"
#include "data/text_check.hpp"
#include "runtime/isolation.hpp"
#include "runtime/runtime_error.hpp"
#include "runtime/verdict.hpp"
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
  long long wgsize = 0;
  double timeout = 60;
  // clang-format off
  options.add_options()
      ("task", po::value(&task), "devmap (default) or coarsening (see --task coarsening --help)")
      ("file", po::value(&input)->required(), "OpenCL source file")
      ("gsize", po::value(&gsize)->required(), "global size S (elements of each buffer)")
      ("kernel,k", po::value(&kernel), "only this kernel (default: every kernel of the file)")
      ("wgsize", po::value(&wgsize)->default_value(0), "work-group size (0: min(S, 256))")
      ("model", po::value(&modelPath), "model file (default: the bundled model of --platform)")
      ("platform", po::value(&platform)->default_value("amd"), "bundled model: amd or nvidia")
      ("timeout", po::value(&timeout)->default_value(60), "seconds per build and per measurement")
      ("json", "print one JSON object per kernel");
  // clang-format on
  SourceOptionValues sourceValues;
  addSourceOptions(options, sourceValues);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, kUsage, options, positional, vm)) return kExitOk;
  if (task != "devmap") {
    throw UsageError("validate: unknown --task '" + task + "' (devmap, coarsening)");
  }
  if (gsize == 0 || gsize > (size_t{1} << 31)) {
    throw UsageError("validate: --gsize must be between 1 and 2^31");
  }
  checkRunOptions("validate", timeout, 0, wgsize);
  const data::SourceOptions sourceOptions = sourceValues.validated();
  if (modelPath.empty()) modelPath = api::findBundledModel(platform);
  const std::string source = readFile(input);
  data::requireTextFile(source, input);
  api::Predictor predictor(modelPath);  // loads and checks the model before any kernel runs
  // A kernel name the file does not define: the rewriter's answer, as in predict and rewrite.
  if (!kernel.empty()) predictor.predict(source, input, kernel, 0, 1, sourceOptions);

  const runtime::IsolationOptions isolation = workerIsolation(timeout);
  const std::vector<runtime::DeviceInfo> devices = requireDevices("validate", isolation);
  const std::vector<std::string> modelDevices = predictor.modelDevices();
  for (const std::string& name : modelDevices) {
    if (std::none_of(devices.begin(), devices.end(),
                     [&](const runtime::DeviceInfo& d) { return d.name == name; })) {
      std::string seen;
      for (const runtime::DeviceInfo& d : devices) seen += (seen.empty() ? "" : ", ") + d.name;
      throw UsageError("validate: " + modelPath + " decides between " + modelDevices[0] + " and " +
                       modelDevices[1] + "; this machine has no " + name +
                       " (its devices: " + seen + ")");
    }
  }
  runtime::MeasureRequest request;
  request.source = source;
  request.buildFlags = openClBuildFlags(sourceOptions, input);
  if (!kernel.empty()) request.kernels = {kernel};
  request.gsizes = {gsize};
  request.wgsize = static_cast<size_t>(wgsize);
  std::vector<runtime::KernelResult> results;
  std::string untimed;  // kernels no device ran to the end
  runtime::measureIsolated(request, devices.size(), isolation,
                           [&](const runtime::KernelResult& r) { results.push_back(r); });

  for (const runtime::KernelResult& result : results) {
    const std::optional<runtime::LaunchSizes> sizes = runtime::launchSizesOf(result);
    if (!sizes) {  // no device got as far as a payload: nothing to predict for
      throw runtime::RuntimeError("validate: " + input + ":" + result.kernel +
                                  " did not run on any device (" + runtime::statusesOf(result) +
                                  ")");
    }
    const uint64_t transfer = sizes->transfer;
    const size_t used = sizes->wgsize;
    const api::Decision prediction =
        predictor.predict(source, input, result.kernel, static_cast<double>(transfer),
                          static_cast<double>(used), sourceOptions);
    const std::string predicted =
        modelDevices.empty() ? prediction.deviceType : prediction.modelDevice;
    const runtime::DeviceVerdict verdict =
        modelDevices.empty()
            ? runtime::judgeDeviceChoice(devices, result, prediction.deviceType)
            : runtime::judgeNamedDeviceChoice(devices, result, predicted, modelDevices);
    if (!runtime::anyTimings(result)) {
      untimed += (untimed.empty() ? "" : ", ") + result.kernel;
    }
    if (vm.count("json")) {
      nlohmann::json deviceRows = nlohmann::json::array();
      for (size_t i = 0; i < devices.size(); ++i) {
        const runtime::Measurement& m = result.devices[i];
        nlohmann::json row = {{"index", devices[i].index},
                              {"name", devices[i].name},
                              {"type", devices[i].type},
                              {"status", runtime::statusName(m.status)},
                              {"message", m.message}};
        row["ms"] = m.hasTimings() ? nlohmann::json(runtime::totalMs(m)) : nlohmann::json(nullptr);
        deviceRows.push_back(row);
      }
      nlohmann::json out = {{"file", input},
                            {"kernel", result.kernel},
                            {"gsize", gsize},
                            {"wgsize", used},
                            {"transfer", transfer},
                            {"predicted", predicted},
                            {"probability", prediction.probability},
                            {"devices", deviceRows},
                            {"fastest", verdict.fastest},
                            {"note", verdict.note}};
      out["correct"] = verdict.correct ? nlohmann::json(*verdict.correct) : nlohmann::json(nullptr);
      out["of_oracle"] =
          verdict.ofOracle ? nlohmann::json(*verdict.ofOracle) : nlohmann::json(nullptr);
      std::cout << out.dump() << "\n";
      continue;
    }
    std::printf("%s:%s  gsize %zu, transfer %llu bytes, wgsize %zu\n", input.c_str(),
                result.kernel.c_str(), gsize, static_cast<unsigned long long>(transfer), used);
    std::printf("  predicted  %s (probability %.2f)\n", predicted.c_str(), prediction.probability);
    for (size_t i = 0; i < devices.size(); ++i) {
      const runtime::Measurement& m = result.devices[i];
      if (m.hasTimings()) {
        std::printf("  dev%d %-4s %s: %.3f ms, %s\n", devices[i].index, devices[i].type.c_str(),
                    devices[i].name.c_str(), runtime::totalMs(m),
                    runtime::statusName(m.status).c_str());
      } else {
        // Untimed: say why (the message's first line; a build log can be long).
        const std::string why = m.message.substr(0, m.message.find('\n'));
        std::printf("  dev%d %-4s %s: %s%s%s\n", devices[i].index, devices[i].type.c_str(),
                    devices[i].name.c_str(), runtime::statusName(m.status).c_str(),
                    why.empty() ? "" : " - ", why.c_str());
      }
    }
    if (verdict.correct) {
      std::printf("  verdict    %s: %.0f%% of the oracle's speed%s%s\n",
                  *verdict.correct ? "correct" : "wrong", 100 * *verdict.ofOracle,
                  verdict.note.empty() ? "" : "; ", verdict.note.c_str());
    } else {
      std::printf("  verdict    %s%s%s\n", verdict.note.c_str(),
                  verdict.fastest.empty() ? "" : " (fastest measured: ",
                  verdict.fastest.empty() ? "" : (verdict.fastest + ")").c_str());
    }
  }
  if (!untimed.empty()) {  // nothing to validate the prediction against: a failure, not a pass
    throw runtime::RuntimeError("validate: " + input + ": no device ran " + untimed +
                                " to the end (see the statuses above)");
  }
  return kExitOk;
}

}  // namespace deeptune::cli
