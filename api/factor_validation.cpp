// `deeptune validate --task coarsening`: the predicted factor judged on every device against
// each factor's run, and the report of it as text or JSON.
#include "api/factor_validation.hpp"

#include <nlohmann/json.hpp>

#include "api/predictor.hpp"
#include "api/report_text.hpp"
#include "runtime/status.hpp"

namespace deeptune::api {
namespace {

/// A factor run's status on device `d`: REFUSED when the transform refused it.
std::string statusOn(const runtime::FactorRun& run, size_t d) {
  return run.refusal.empty() ? runtime::statusName(run.devices[d].status) : "REFUSED";
}

nlohmann::json optionalJson(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

bool FactorValidation::judged() const {
  for (const runtime::FactorVerdict& verdict : verdicts) {
    if (verdict.speedup) return true;
  }
  return false;
}

FactorValidation judgeFactors(const std::string& file, const std::string& model, size_t gsize,
                              const FactorPrediction& prediction,
                              std::vector<runtime::FactorRun> runs, size_t deviceCount) {
  FactorValidation v{file,
                     model,
                     gsize,
                     prediction.kernel,
                     static_cast<size_t>(prediction.factor),
                     prediction.probability,
                     prediction.method,
                     std::move(runs),
                     {}};
  for (size_t d = 0; d < deviceCount; ++d) {
    v.verdicts.push_back(runtime::judgeFactor(v.runs, d, v.predicted));
  }
  return v;
}

std::string factorValidationText(const FactorValidation& v,
                                 const std::vector<runtime::DeviceInfo>& devices) {
  std::string text = formatText("%s:%s  gsize %zu\n", v.file.c_str(), v.kernel.c_str(), v.gsize);
  text += formatText("  predicted  factor %zu (probability %.2f, %s, %s)\n", v.predicted,
                     v.probability, v.method.c_str(), v.model.c_str());
  for (size_t d = 0; d < devices.size(); ++d) {
    const runtime::FactorVerdict& verdict = v.verdicts[d];
    std::string times;
    for (size_t i = 0; i < v.runs.size(); ++i) {
      times +=
          (times.empty() ? "" : ", ") +
          (verdict.ns[i] ? formatText("%zu: %.3f ms", v.runs[i].factor, *verdict.ns[i] / 1e6)
                         : formatText("%zu: %s", v.runs[i].factor, statusOn(v.runs[i], d).c_str()));
    }
    text += formatText("  dev%d %-4s %s: %s\n", devices[d].index, devices[d].type.c_str(),
                       devices[d].name.c_str(), times.c_str());
    if (verdict.speedup) {
      text += formatText(
          "    verdict  factor %zu: %.2fx over factor 1, %.0f%% of the best factor's (%zu)%s%s\n",
          v.predicted, *verdict.speedup, 100 * *verdict.ofOracle, *verdict.best,
          verdict.note.empty() ? "" : "; ", verdict.note.c_str());
    } else {
      text += formatText("    verdict  %s\n", verdict.note.c_str());
    }
  }
  return text;
}

std::string factorValidationJson(const FactorValidation& v,
                                 const std::vector<runtime::DeviceInfo>& devices) {
  nlohmann::json deviceRows = nlohmann::json::array();
  for (size_t d = 0; d < devices.size(); ++d) {
    const runtime::FactorVerdict& verdict = v.verdicts[d];
    nlohmann::json factors = nlohmann::json::array();
    for (size_t i = 0; i < v.runs.size(); ++i) {
      factors.push_back({{"factor", v.runs[i].factor},
                         {"status", statusOn(v.runs[i], d)},
                         {"kernel_ns", optionalJson(verdict.ns[i])}});
    }
    nlohmann::json row = {{"index", devices[d].index},
                          {"name", devices[d].name},
                          {"type", devices[d].type},
                          {"factors", factors},
                          {"note", verdict.note}};
    row["best_factor"] = verdict.best ? nlohmann::json(*verdict.best) : nlohmann::json(nullptr);
    row["speedup"] = optionalJson(verdict.speedup);
    row["of_oracle"] = optionalJson(verdict.ofOracle);
    deviceRows.push_back(row);
  }
  const nlohmann::json out = {{"file", v.file},           {"kernel", v.kernel},
                              {"gsize", v.gsize},         {"model", v.model},
                              {"predicted", v.predicted}, {"probability", v.probability},
                              {"method", v.method},       {"devices", deviceRows}};
  return out.dump();
}

}  // namespace deeptune::api
