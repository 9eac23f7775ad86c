// Judging a prediction against measurements on every device: the device-mapping verdict (was the
// predicted device type the fastest?) and the coarsening verdict (the predicted factor's speedup).
#include "runtime/verdict.hpp"

#include <algorithm>
#include <cstdio>

#include "runtime/stats.hpp"
#include "runtime/status.hpp"

namespace deeptune::runtime {
namespace {

constexpr const char* kDeviceTypes[] = {"CPU", "GPU", "ACCELERATOR", "OTHER"};

/// The first device of `type` with timings (its index into devices), if any.
std::optional<size_t> firstTimed(const std::vector<DeviceInfo>& devices, const KernelResult& result,
                                 const std::string& type) {
  for (size_t i = 0; i < devices.size() && i < result.devices.size(); ++i) {
    if (devices[i].type == type && result.devices[i].hasTimings()) return i;
  }
  return std::nullopt;
}

}  // namespace

std::optional<LaunchSizes> launchSizesOf(const KernelResult& result) {
  LaunchSizes sizes;
  for (const Measurement& m : result.devices) {
    if (m.wgsize == 0) continue;
    if (sizes.wgsize == 0) sizes.transfer = m.transferBytes;
    sizes.wgsize = sizes.wgsize == 0 ? m.wgsize : std::min(sizes.wgsize, m.wgsize);
  }
  if (sizes.wgsize == 0) return std::nullopt;
  return sizes;
}

std::string statusesOf(const KernelResult& result) {
  std::string text;
  for (const Measurement& m : result.devices) {
    text += (text.empty() ? "" : "; ") + statusName(m.status) + ": " + m.message;
  }
  return text;
}

bool anyTimings(const KernelResult& result) {
  return std::any_of(result.devices.begin(), result.devices.end(),
                     [](const Measurement& m) { return m.hasTimings(); });
}

double totalMs(const Measurement& measurement) { return summarize(measurement.runs).totalNs / 1e6; }

namespace {

/// Fills correct and ofOracle of `verdict` (whose `fastest` is set) for the chosen device
/// against the best, and says in the note how much a wrong choice lost.
void judgeAgainstBest(const KernelResult& result, size_t chosen, size_t best,
                      DeviceVerdict& verdict) {
  const double bestMs = totalMs(result.devices[best]);
  const double chosenMs = totalMs(result.devices[chosen]);
  verdict.correct = chosen == best;
  verdict.ofOracle = bestMs / chosenMs;
  if (chosen != best) {
    char text[160];
    std::snprintf(text, sizeof text, "%s would have been %.2fx faster", verdict.fastest.c_str(),
                  chosenMs / bestMs);
    verdict.note = text;
  }
}

}  // namespace

DeviceVerdict judgeDeviceChoice(const std::vector<DeviceInfo>& devices, const KernelResult& result,
                                const std::string& predicted) {
  DeviceVerdict verdict;
  std::optional<size_t> best;
  int typesTimed = 0;
  for (const char* type : kDeviceTypes) {
    const auto candidate = firstTimed(devices, result, type);
    if (!candidate) continue;
    ++typesTimed;
    if (!best || totalMs(result.devices[*candidate]) < totalMs(result.devices[*best])) {
      best = candidate;
    }
  }
  if (!best) {
    verdict.note = "cannot judge: no device produced timings";
    return verdict;
  }
  verdict.fastest = devices[*best].type;
  if (std::none_of(devices.begin(), devices.end(),
                   [&](const DeviceInfo& d) { return d.type == predicted; })) {
    verdict.note = "cannot judge: no " + predicted + " device on this machine";
    return verdict;
  }
  const auto chosen = firstTimed(devices, result, predicted);
  if (!chosen) {
    verdict.note = "cannot judge: the " + predicted + " device produced no timings";
    return verdict;
  }
  if (typesTimed == 1) verdict.note = "the only device type measured on this machine";
  judgeAgainstBest(result, *chosen, *best, verdict);
  return verdict;
}

DeviceVerdict judgeNamedDeviceChoice(const std::vector<DeviceInfo>& devices,
                                     const KernelResult& result, const std::string& predicted,
                                     const std::vector<std::string>& modelDevices) {
  DeviceVerdict verdict;
  std::optional<size_t> best, chosen;
  for (const std::string& name : modelDevices) {
    for (size_t d = 0; d < devices.size() && d < result.devices.size(); ++d) {
      if (devices[d].name != name) continue;
      if (!result.devices[d].hasTimings()) {
        verdict.note = "cannot judge: " + name + " produced no timings";
        return verdict;
      }
      if (!best || totalMs(result.devices[d]) < totalMs(result.devices[*best])) best = d;
      if (name == predicted) chosen = d;
      break;
    }
  }
  if (!best || !chosen) {
    verdict.note = "cannot judge: the model's devices are not both on this machine";
    return verdict;
  }
  verdict.fastest = devices[*best].name;
  judgeAgainstBest(result, *chosen, *best, verdict);
  return verdict;
}

std::optional<double> kernelTimeNs(const Measurement& measurement) {
  if (measurement.status != Status::kOk || !measurement.hasTimings()) return std::nullopt;
  std::vector<double> kernelNs;
  for (const RunTiming& run : measurement.runs) {
    kernelNs.push_back(static_cast<double>(run.kernelNs));
  }
  return median(kernelNs);
}

FactorVerdict judgeFactor(const std::vector<FactorRun>& runs, size_t device, size_t predicted) {
  FactorVerdict verdict;
  std::optional<double> base, chosen, best;
  size_t chosenFactor = 0;
  for (const FactorRun& run : runs) {
    const std::optional<double> ns = run.refusal.empty() && device < run.devices.size()
                                         ? kernelTimeNs(run.devices[device])
                                         : std::nullopt;
    verdict.ns.push_back(ns);
    if (!ns) continue;
    if (run.factor == 1) base = ns;
    if (!best || *ns < *best) {
      best = ns;
      verdict.best = run.factor;
    }
    if (run.factor <= predicted && run.factor >= chosenFactor) {
      chosen = ns;
      chosenFactor = run.factor;
    }
  }
  if (!base || !chosen) {
    verdict.note = "cannot judge: factor 1 produced no timings on this device";
    return verdict;
  }
  verdict.speedup = *base / *chosen;
  verdict.ofOracle = *best / *chosen;
  if (chosenFactor != predicted) {
    verdict.note = "factor " + std::to_string(predicted) + " not timed here; judged as factor " +
                   std::to_string(chosenFactor);
  }
  return verdict;
}

}  // namespace deeptune::runtime
