// The thread-coarsening evaluation report: per-kernel predictions, per-run and per-device tables.
#include "model/coarsening_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>
#include <tuple>

#include "data/csv_reader.hpp"
#include "data/file_io.hpp"
#include "model/devmap_metrics.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {
namespace {

std::string number(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

void writeReportFile(const std::filesystem::path& path, const std::string& content) {
  try {
    data::writeFileAtomically(path.string(), content);
  } catch (const data::OutputError& e) {
    throw ModelError(std::string("cannot write the report: ") + e.what());
  }
}

/// "1.23× ± 0.04 (1.18–1.27)" for several runs, "1.23×" for one.
std::string spreadText(const std::vector<double>& values) {
  const Spread s = spreadOf(values);
  if (values.size() < 2) return number("%.3f\xC3\x97", s.mean);
  return number("%.3f\xC3\x97", s.mean) + number(" \xC2\xB1 %.3f", s.sd) + number(" (%.3f", s.min) +
         number("\xE2\x80\x93%.3f)", s.max);
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
  std::string csv = data::csvRow(
      {"device", "method", "run", "kernel", "factor", "best_factor", "speedup", "oracle_speedup"});
  for (const CoarseningPrediction& p : predictions) {
    csv += data::csvRow({p.device, p.method, std::to_string(p.run), p.kernel,
                         std::to_string(p.factor), std::to_string(p.bestFactor),
                         number("%.6f", p.speedup), number("%.6f", p.oracle)});
  }
  writeReportFile(folder / "predictions.csv", csv);

  const std::vector<CoarseningScores> scores = coarseningScores(predictions);
  std::string runs = data::csvRow({"device", "method", "run", "mean_speedup", "geomean_speedup"});
  for (const CoarseningScores& s : scores) {
    for (size_t r = 0; r < s.runMeans.size(); ++r) {
      runs += data::csvRow({s.device, s.method, std::to_string(r), number("%.6f", s.runMeans[r]),
                            number("%.6f", s.runGeomeans[r])});
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
          spreadText(s.runGeomeans) + " | " + number("%.1f%%", 100 * s.ofOracle()) + " | " +
          number("%.3f\xC3\x97", s.oracleMean) + " |\n";
  }
  // Per device: does DeepTune-TL beat the fixed factor?
  std::string verdicts;
  for (const CoarseningScores& tl : scores) {
    if (tl.method != "deeptune-tl") continue;
    for (const CoarseningScores& fixed : scores) {
      if (fixed.method == "fixed" && fixed.device == tl.device) {
        verdicts += "- " + tl.device + ": deeptune-tl " + number("%.3f\xC3\x97", tl.mean()) +
                    (tl.mean() > fixed.mean() ? " beats" : " does not beat") + " fixed " +
                    number("%.3f\xC3\x97", fixed.mean()) + "\n";
      }
    }
  }
  if (!verdicts.empty()) md += "\n## DeepTune-TL against the fixed factor\n\n" + verdicts;
  if (!context.notes.empty()) {
    md += "\n## Notes\n\n";
    for (const std::string& note : context.notes) md += "- " + note + "\n";
  }
  md += "\nFiles: `predictions.csv` (every held-out kernel), `runs.csv` (each run's means).\n";
  writeReportFile(folder / "summary.md", md);
}

}  // namespace deeptune::model
