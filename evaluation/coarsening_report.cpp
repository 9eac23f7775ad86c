// The thread-coarsening evaluation report: per-kernel predictions, per-run and per-device tables.
#include "evaluation/coarsening_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "data/csv_reader.hpp"
#include "data/file_io.hpp"
#include "evaluation/devmap_metrics.hpp"
#include "evaluation/evaluation_error.hpp"
#include "evaluation/report_plots.hpp"

namespace deeptune::evaluation {
namespace {

void writeReportFile(const std::filesystem::path& path, const std::string& content) {
  try {
    data::writeFileAtomically(path.string(), content);
  } catch (const data::OutputError& e) {
    throw EvaluationError(std::string("cannot write the report: ") + e.what());
  }
}

/// "1.23× ± 0.04 (1.18–1.27)" for several runs, "1.23×" for one.
std::string spreadText(const std::vector<double>& values) {
  const Spread s = spreadOf(values);
  if (values.size() < 2) return formatNumber("%.3f\xC3\x97", s.mean);
  return formatNumber("%.3f\xC3\x97", s.mean) + formatNumber(" \xC2\xB1 %.3f", s.sd) +
         formatNumber(" (%.3f", s.min) + formatNumber("\xE2\x80\x93%.3f)", s.max);
}

/// One held-out kernel on one device: each method's speedups and factors over its runs.
struct KernelOutcome {
  std::string device;
  std::string kernel;
  int bestFactor = 1;
  double oracle = 1;
  std::map<std::string, std::vector<const CoarseningPrediction*>> byMethod;
};

/// Outcomes in the predictions' order (device, then kernel), and the methods in theirs.
std::vector<KernelOutcome> kernelOutcomes(const std::vector<CoarseningPrediction>& predictions,
                                          std::vector<std::string>& methods) {
  std::vector<KernelOutcome> outcomes;
  for (const CoarseningPrediction& p : predictions) {
    if (std::find(methods.begin(), methods.end(), p.method) == methods.end()) {
      methods.push_back(p.method);
    }
    auto it = std::find_if(outcomes.begin(), outcomes.end(), [&](const KernelOutcome& o) {
      return o.device == p.device && o.kernel == p.kernel;
    });
    if (it == outcomes.end()) {
      outcomes.push_back({p.device, p.kernel, p.bestFactor, p.oracle, {}});
      it = std::prev(outcomes.end());
    }
    it->byMethod[p.method].push_back(&p);
  }
  return outcomes;
}

double meanSpeedup(const std::vector<const CoarseningPrediction*>& runs) {
  double sum = 0;
  for (const CoarseningPrediction* p : runs) sum += p->speedup;
  return runs.empty() ? 0 : sum / static_cast<double>(runs.size());
}

/// "1.94× (8)" for one run; "1.71× (4 4 8 4 4)" for several: mean speedup, each run's factor.
std::string outcomeCell(const std::vector<const CoarseningPrediction*>& runs) {
  if (runs.empty()) return "";
  std::string factors;
  for (const CoarseningPrediction* p : runs) {
    factors += (factors.empty() ? "" : " ") + std::to_string(p->factor);
  }
  return formatNumber("%.2f\xC3\x97", meanSpeedup(runs)) + " (" + factors + ")";
}

std::string perKernelMarkdown(const std::vector<KernelOutcome>& outcomes,
                              const std::vector<std::string>& methods) {
  std::string md =
      "\n## Per kernel\n\nMean speedup over factor 1 of each held-out kernel and, in "
      "brackets, the factor each run chose.\n";
  std::string device;
  for (const KernelOutcome& o : outcomes) {
    if (o.device != device) {
      device = o.device;
      md += "\n### " + device + "\n\n| kernel | best factor | oracle |";
      for (const std::string& method : methods) md += " " + method + " |";
      md += "\n|---|---:|---:|";
      for (size_t m = 0; m < methods.size(); ++m) md += "---:|";
      md += "\n";
    }
    md += "| " + o.kernel + " | " + std::to_string(o.bestFactor) + " | " +
          formatNumber("%.2f\xC3\x97", o.oracle) + " |";
    for (const std::string& method : methods) {
      const auto it = o.byMethod.find(method);
      md += " " + (it == o.byMethod.end() ? std::string() : outcomeCell(it->second)) + " |";
    }
    md += "\n";
  }
  return md;
}

std::string perKernelCsv(const std::vector<KernelOutcome>& outcomes,
                         const std::vector<std::string>& methods) {
  std::vector<std::string> header = {"device", "kernel", "best_factor", "oracle_speedup"};
  header.insert(header.end(), methods.begin(), methods.end());
  std::string csv = data::csvRow(header);
  for (const KernelOutcome& o : outcomes) {
    std::vector<std::string> fields = {o.device, o.kernel, std::to_string(o.bestFactor),
                                       formatNumber("%.6f", o.oracle)};
    for (const std::string& method : methods) {
      const auto it = o.byMethod.find(method);
      fields.push_back(it == o.byMethod.end() ? "" : formatNumber("%.6f", meanSpeedup(it->second)));
    }
    csv += data::csvRow(fields);
  }
  return csv;
}

std::string perKernelSvg(const std::vector<KernelOutcome>& outcomes,
                         const std::vector<std::string>& methods) {
  std::vector<SpeedupPoint> points;
  for (const KernelOutcome& o : outcomes) {
    SpeedupPoint point{o.kernel, o.device + " " + o.kernel, o.device, {}, o.oracle};
    for (const std::string& method : methods) {
      const auto it = o.byMethod.find(method);
      point.methods.push_back(it == o.byMethod.end() ? 1.0 : meanSpeedup(it->second));
    }
    points.push_back(std::move(point));
  }
  return speedupPointsSvg(points, methods, "Speedup over factor 1 (log scale)",
                          "Thread coarsening: speedup per held-out kernel");
}

std::string perDeviceSvg(const std::vector<CoarseningScores>& scores,
                         const std::vector<std::string>& methods) {
  std::vector<BarGroup> groups;
  std::vector<std::string> names = methods;
  names.push_back("oracle");
  double highest = 1;
  for (const CoarseningScores& s : scores) {
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&](const BarGroup& g) { return g.label == s.device; });
    if (group == groups.end()) {
      groups.push_back({s.device, std::vector<double>(names.size(), 0.0)});
      group = std::prev(groups.end());
      group->values.back() = s.oracleMean;
    }
    const size_t m =
        static_cast<size_t>(std::find(methods.begin(), methods.end(), s.method) - methods.begin());
    if (m < methods.size()) group->values[m] = s.mean();
    highest = std::max({highest, s.mean(), s.oracleMean});
  }
  BarAxis axis;
  axis.title = "Mean speedup over factor 1";
  axis.step = highest <= 2 ? 0.25 : 0.5;
  axis.max = std::ceil(highest / axis.step) * axis.step;
  axis.tickLabel = [](double v) { return formatNumber("%.2f", v) + "\xC3\x97"; };
  axis.barLabel = [](double v) { return formatNumber("%.2f", v); };
  axis.hoverText = [](double v) { return formatNumber("%.3f", v) + "\xC3\x97"; };
  return groupedBarsSvg(groups, names, axis, "Thread coarsening: mean speedup per device");
}

/// How often the runs of each trained method agree on a held-out kernel's factor, and how often
/// the fallback to the fixed factor was taken.
std::string agreementMarkdown(const std::vector<CoarseningPrediction>& predictions) {
  std::vector<std::string> methods;
  // (method, device, kernel) -> the factors of its runs
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<int>> factors;
  std::map<std::string, std::pair<size_t, size_t>> fallbacks;  // method -> (taken, predictions)
  for (const CoarseningPrediction& p : predictions) {
    if (p.method != "deeptune" && p.method != "deeptune-tl" && p.method != "magni") continue;
    if (std::find(methods.begin(), methods.end(), p.method) == methods.end()) {
      methods.push_back(p.method);
    }
    factors[{p.method, p.device, p.kernel}].push_back(p.factor);
    fallbacks[p.method].first += p.fellBack ? 1 : 0;
    fallbacks[p.method].second += 1;
  }
  if (methods.empty()) return "";
  std::string md =
      "\n## Agreement between runs\n\n| method | (device, kernel) pairs | all runs agree | "
      "distinct factors per pair | fell back to fixed |\n|---|---:|---:|---:|---:|\n";
  for (const std::string& method : methods) {
    size_t pairs = 0, agree = 0, distinct = 0;
    for (const auto& [key, chosen] : factors) {
      if (std::get<0>(key) != method) continue;
      ++pairs;
      std::vector<int> unique = chosen;
      std::sort(unique.begin(), unique.end());
      unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
      agree += unique.size() == 1 ? 1 : 0;
      distinct += unique.size();
    }
    const auto [taken, all] = fallbacks[method];
    md += "| " + method + " | " + std::to_string(pairs) + " | " + std::to_string(agree) + " | " +
          formatNumber("%.2f", static_cast<double>(distinct) / static_cast<double>(pairs)) + " | " +
          std::to_string(taken) + " of " + std::to_string(all) + " |\n";
  }
  return md;
}

}  // namespace

double CoarseningScores::mean() const {
  return runMeans.empty() ? 0
                          : std::accumulate(runMeans.begin(), runMeans.end(), 0.0) /
                                static_cast<double>(runMeans.size());
}

std::vector<CoarseningScores> coarseningScores(
    const std::vector<CoarseningPrediction>& predictions) {
  std::vector<CoarseningScores> scores;
  // (device, method, run) -> speedups; insertion order kept through `order`.
  std::map<std::tuple<std::string, std::string, int>, std::vector<const CoarseningPrediction*>>
      groups;
  std::vector<std::pair<std::string, std::string>> order;
  for (const CoarseningPrediction& p : predictions) {
    auto& group = groups[{p.device, p.method, p.run}];
    group.push_back(&p);
    if (std::find(order.begin(), order.end(), std::make_pair(p.device, p.method)) == order.end()) {
      order.emplace_back(p.device, p.method);
    }
  }
  std::vector<std::string> methods;
  for (const auto& [device, method] : order) {
    if (std::find(methods.begin(), methods.end(), method) == methods.end()) {
      methods.push_back(method);
    }
    CoarseningScores s;
    s.device = device;
    s.method = method;
    for (int run = 0; groups.count({device, method, run}) != 0; ++run) {
      const auto& group = groups.at({device, method, run});
      double sum = 0, logSum = 0, oracle = 0;
      for (const CoarseningPrediction* p : group) {
        sum += p->speedup;
        logSum += std::log(p->speedup);
        oracle += p->oracle;
      }
      const double n = static_cast<double>(group.size());
      s.runMeans.push_back(sum / n);
      s.runGeomeans.push_back(std::exp(logSum / n));
      s.oracleMean = oracle / n;
    }
    scores.push_back(std::move(s));
  }
  for (const std::string& method : methods) {  // over all devices: run r's mean of device means
    CoarseningScores all;
    all.device = "all";
    all.method = method;
    std::vector<const CoarseningScores*> perDevice;
    for (const CoarseningScores& s : scores) {
      if (s.method == method && s.device != "all") perDevice.push_back(&s);
    }
    const size_t runs = perDevice.front()->runMeans.size();
    double oracle = 0;
    for (const CoarseningScores* s : perDevice) oracle += s->oracleMean;
    all.oracleMean = oracle / static_cast<double>(perDevice.size());
    for (size_t r = 0; r < runs; ++r) {
      double mean = 0, geomean = 0;
      for (const CoarseningScores* s : perDevice) {
        mean += s->runMeans.at(r);
        geomean += s->runGeomeans.at(r);
      }
      all.runMeans.push_back(mean / static_cast<double>(perDevice.size()));
      all.runGeomeans.push_back(geomean / static_cast<double>(perDevice.size()));
    }
    scores.push_back(std::move(all));
  }
  return scores;
}

void writeCoarseningReport(const std::string& dir,
                           const std::vector<CoarseningPrediction>& predictions,
                           const CoarseningReportContext& context) {
  const std::filesystem::path folder(dir);
  std::string csv = data::csvRow({"device", "method", "run", "kernel", "factor", "best_factor",
                                  "speedup", "oracle_speedup", "fell_back"});
  for (const CoarseningPrediction& p : predictions) {
    csv +=
        data::csvRow({p.device, p.method, std::to_string(p.run), p.kernel, std::to_string(p.factor),
                      std::to_string(p.bestFactor), formatNumber("%.6f", p.speedup),
                      formatNumber("%.6f", p.oracle), p.fellBack ? "1" : "0"});
  }
  writeReportFile(folder / "predictions.csv", csv);

  const std::vector<CoarseningScores> scores = coarseningScores(predictions);
  std::string runs = data::csvRow({"device", "method", "run", "mean_speedup", "geomean_speedup"});
  for (const CoarseningScores& s : scores) {
    for (size_t r = 0; r < s.runMeans.size(); ++r) {
      runs +=
          data::csvRow({s.device, s.method, std::to_string(r), formatNumber("%.6f", s.runMeans[r]),
                        formatNumber("%.6f", s.runGeomeans[r])});
    }
  }
  writeReportFile(folder / "runs.csv", runs);

  std::string md = "# Thread coarsening: leave-one-kernel-out\n\n";
  md += "Command: `" + context.command + "`\n\n";
  for (const std::string& setting : context.settings) md += "- " + setting + "\n";
  md +=
      "\nSpeedup over factor 1 (mean over the held-out kernels; learned methods: mean over "
      "runs \xC2\xB1 sd (min\xE2\x80\x93max)); geomean; fraction of the oracle's mean "
      "speedup.\n\n| device | method | mean speedup | geomean | % of oracle | oracle |\n"
      "|---|---|---:|---:|---:|---:|\n";
  for (const CoarseningScores& s : scores) {
    md += "| " + s.device + " | " + s.method + " | " + spreadText(s.runMeans) + " | " +
          spreadText(s.runGeomeans) + " | " + formatNumber("%.1f%%", 100 * s.ofOracle()) + " | " +
          formatNumber("%.3f\xC3\x97", s.oracleMean) + " |\n";
  }
  // Per device: does each learned method beat the fixed factor?
  std::string verdicts;
  for (const CoarseningScores& learned : scores) {
    if (learned.method != "deeptune" && learned.method != "deeptune-tl") continue;
    for (const CoarseningScores& fixed : scores) {
      if (fixed.method == "fixed" && fixed.device == learned.device) {
        verdicts += "- " + learned.device + ": " + learned.method + " " +
                    formatNumber("%.3f\xC3\x97", learned.mean()) +
                    (learned.mean() > fixed.mean() ? " beats" : " does not beat") + " fixed " +
                    formatNumber("%.3f\xC3\x97", fixed.mean()) + "\n";
      }
    }
  }
  if (!verdicts.empty()) md += "\n## Learned methods against the fixed factor\n\n" + verdicts;
  md += agreementMarkdown(predictions);
  std::vector<std::string> methods;
  const std::vector<KernelOutcome> outcomes = kernelOutcomes(predictions, methods);
  md += perKernelMarkdown(outcomes, methods);
  if (!context.notes.empty()) {
    md += "\n## Notes\n\n";
    for (const std::string& note : context.notes) md += "- " + note + "\n";
  }
  md +=
      "\nFiles: `predictions.csv` (every held-out kernel), `runs.csv` (each run's means), "
      "`speedup_per_kernel.csv` (each kernel's mean over runs), `speedup_per_device.svg`, "
      "`speedup_per_kernel.svg`.\n";
  writeReportFile(folder / "speedup_per_kernel.csv", perKernelCsv(outcomes, methods));
  writeReportFile(folder / "speedup_per_device.svg", perDeviceSvg(scores, methods));
  writeReportFile(folder / "speedup_per_kernel.svg", perKernelSvg(outcomes, methods));
  writeReportFile(folder / "summary.md", md);
}

std::string coarseningScoreTable(const std::vector<CoarseningScores>& scores) {
  std::set<std::string> devices;
  for (const CoarseningScores& s : scores) {
    if (s.device != "all") devices.insert(s.device);
  }
  const std::string deviceCount =
      std::to_string(devices.size()) + (devices.size() == 1 ? " device" : " devices");
  std::string text;
  for (const CoarseningScores& s : scores) {
    if (s.device != "all") continue;
    char line[300];
    std::snprintf(line, sizeof line, "%-12s mean speedup %.3fx over %s (%.1f%% of the oracle)\n",
                  s.method.c_str(), s.mean(), deviceCount.c_str(), 100 * s.ofOracle());
    text += line;
  }
  return text;
}

std::string coarseningProgressLine(const CoarseningPrediction& p, size_t done, size_t total) {
  char line[200];
  std::snprintf(line, sizeof line, "%zu/%zu trainings: %s %s run %d, %s -> factor %d (%.2fx)", done,
                total, p.device.c_str(), p.method.c_str(), p.run, p.kernel.c_str(), p.factor,
                p.speedup);
  return line;
}

}  // namespace deeptune::evaluation
