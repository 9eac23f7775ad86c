// `deeptune validate` (device mapping): each kernel run on every device, the model's device for
// its measured launch, the verdict, and the report of it as text or JSON.
#include "api/device_validation.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

#include "api/predictor.hpp"
#include "api/report_text.hpp"
#include "runtime/runtime_error.hpp"
#include "runtime/status.hpp"

namespace deeptune::api {

std::string missingModelDevice(const std::string& modelPath,
                               const std::vector<std::string>& modelDevices,
                               const std::vector<runtime::DeviceInfo>& devices) {
  for (const std::string& name : modelDevices) {
    if (std::none_of(devices.begin(), devices.end(),
                     [&](const runtime::DeviceInfo& d) { return d.name == name; })) {
      std::string seen;
      for (const runtime::DeviceInfo& d : devices) seen += (seen.empty() ? "" : ", ") + d.name;
      return "validate: " + modelPath + " decides between " + modelDevices[0] + " and " +
             modelDevices[1] + "; this machine has no " + name + " (its devices: " + seen + ")";
    }
  }
  return "";
}

void validateDevices(Predictor& predictor, const DeviceValidationLaunch& launch,
                     const std::vector<runtime::DeviceInfo>& devices,
                     const runtime::IsolationOptions& isolation,
                     const std::function<void(const DeviceValidation&)>& onKernel) {
  runtime::MeasureRequest request;
  request.source = launch.source;
  request.buildFlags = launch.buildFlags;
  if (!launch.kernel.empty()) request.kernels = {launch.kernel};
  request.gsizes = {launch.gsize};
  request.wgsize = launch.wgsize;
  std::vector<runtime::KernelResult> results;
  runtime::measureIsolated(request, devices.size(), isolation,
                           [&](const runtime::KernelResult& r) { results.push_back(r); });

  const std::vector<std::string> modelDevices = predictor.modelDevices();
  std::string untimed;  // kernels no device ran to the end
  for (const runtime::KernelResult& result : results) {
    const std::optional<runtime::LaunchSizes> sizes = runtime::launchSizesOf(result);
    if (!sizes) {  // no device got as far as a payload: nothing to predict for
      throw runtime::RuntimeError("validate: " + launch.file + ":" + result.kernel +
                                  " did not run on any device (" + runtime::statusesOf(result) +
                                  ")");
    }
    DeviceValidation v{result, *sizes, {}, {}, {}};
    v.prediction = predictor.predict(launch.source, launch.file, result.kernel,
                                     static_cast<double>(sizes->transfer),
                                     static_cast<double>(sizes->wgsize), launch.sourceOptions);
    v.predicted = modelDevices.empty() ? v.prediction.deviceType : v.prediction.modelDevice;
    v.verdict = modelDevices.empty()
                    ? runtime::judgeDeviceChoice(devices, result, v.prediction.deviceType)
                    : runtime::judgeNamedDeviceChoice(devices, result, v.predicted, modelDevices);
    if (!runtime::anyTimings(result)) {
      untimed += (untimed.empty() ? "" : ", ") + result.kernel;
    }
    onKernel(v);
  }
  if (!untimed.empty()) {  // nothing to validate the prediction against: a failure, not a pass
    throw runtime::RuntimeError("validate: " + launch.file + ": no device ran " + untimed +
                                " to the end (see the statuses above)");
  }
}

std::string deviceValidationText(const DeviceValidation& v, const DeviceValidationLaunch& launch,
                                 const std::vector<runtime::DeviceInfo>& devices) {
  std::string text = formatText("%s:%s  gsize %zu, transfer %llu bytes, wgsize %zu\n",
                                launch.file.c_str(), v.result.kernel.c_str(), launch.gsize,
                                static_cast<unsigned long long>(v.sizes.transfer), v.sizes.wgsize);
  text += formatText("  predicted  %s (probability %.2f; %s)\n", v.predicted.c_str(),
                     v.prediction.probability, v.prediction.method.c_str());
  for (size_t i = 0; i < devices.size(); ++i) {
    const runtime::Measurement& m = v.result.devices[i];
    const runtime::DeviceInfo& d = devices[i];
    if (m.hasTimings()) {
      text += formatText("  dev%d %-4s %s: %.3f ms, %s\n", d.index, d.type.c_str(), d.name.c_str(),
                         runtime::totalMs(m), runtime::statusName(m.status).c_str());
    } else {
      // Untimed: say why (the message's first line; a build log can be long).
      const std::string why = m.message.substr(0, m.message.find('\n'));
      text +=
          formatText("  dev%d %-4s %s: %s%s%s\n", d.index, d.type.c_str(), d.name.c_str(),
                     runtime::statusName(m.status).c_str(), why.empty() ? "" : " - ", why.c_str());
    }
  }
  const runtime::DeviceVerdict& verdict = v.verdict;
  if (verdict.correct) {
    return text + formatText("  verdict    %s: %.0f%% of the oracle's speed%s%s\n",
                             *verdict.correct ? "correct" : "wrong", 100 * *verdict.ofOracle,
                             verdict.note.empty() ? "" : "; ", verdict.note.c_str());
  }
  return text + formatText("  verdict    %s%s%s\n", verdict.note.c_str(),
                           verdict.fastest.empty() ? "" : " (fastest measured: ",
                           verdict.fastest.empty() ? "" : (verdict.fastest + ")").c_str());
}

std::string deviceValidationJson(const DeviceValidation& v, const DeviceValidationLaunch& launch,
                                 const std::vector<runtime::DeviceInfo>& devices) {
  nlohmann::json deviceRows = nlohmann::json::array();
  for (size_t i = 0; i < devices.size(); ++i) {
    const runtime::Measurement& m = v.result.devices[i];
    nlohmann::json row = {{"index", devices[i].index},
                          {"name", devices[i].name},
                          {"type", devices[i].type},
                          {"status", runtime::statusName(m.status)},
                          {"message", m.message}};
    row["ms"] = m.hasTimings() ? nlohmann::json(runtime::totalMs(m)) : nlohmann::json(nullptr);
    deviceRows.push_back(row);
  }
  const runtime::DeviceVerdict& verdict = v.verdict;
  nlohmann::json out = {{"file", launch.file},
                        {"kernel", v.result.kernel},
                        {"gsize", launch.gsize},
                        {"wgsize", v.sizes.wgsize},
                        {"transfer", v.sizes.transfer},
                        {"predicted", v.predicted},
                        {"probability", v.prediction.probability},
                        {"method", v.prediction.method},
                        {"devices", deviceRows},
                        {"fastest", verdict.fastest},
                        {"note", verdict.note}};
  out["correct"] = verdict.correct ? nlohmann::json(*verdict.correct) : nlohmann::json(nullptr);
  out["of_oracle"] = verdict.ofOracle ? nlohmann::json(*verdict.ofOracle) : nlohmann::json(nullptr);
  return out.dump();
}

}  // namespace deeptune::api
