// Device-mapping evaluation report: Markdown and CSV tables plus two hand-drawn SVG plots.
#include "evaluation/devmap_report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "data/csv_reader.hpp"
#include "data/duration_text.hpp"
#include "data/file_io.hpp"
#include "evaluation/calibration_metrics.hpp"
#include "evaluation/evaluation_error.hpp"
#include "evaluation/report_plots.hpp"

namespace deeptune::evaluation {

namespace {

/// Markdown table cell: a '|' would end the cell.
std::string mdCell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

void writeFileAtomically(const std::filesystem::path& path, const std::string& content) {
  try {
    data::writeFileAtomically(path.string(), content);
  } catch (const data::OutputError& e) {
    throw EvaluationError(e.what());
  }
}

std::string percent(double fraction) { return formatNumber("%.1f%%", fraction * 100.0); }
std::string times(double speedup) { return formatNumber("%.2f\xC3\x97", speedup); }  // U+00D7

/// "85.4% ± 0.7 (84.6–86.0)": mean ± sd (min–max) of values in `unit` ("%" or "×").
std::string spreadText(const Spread& s, const char* unit) {
  const bool percentUnit = std::string(unit) == "%";
  const char* pattern = percentUnit ? "%.1f" : "%.2f";
  return formatNumber(pattern, s.mean) + unit + " ± " + formatNumber(pattern, s.sd) + " (" +
         formatNumber(pattern, s.min) + "\xE2\x80\x93" + formatNumber(pattern, s.max) +
         ")";  // en dash
}

std::string repeatedMarkdown(const std::vector<RepeatedScores>& groups) {
  std::string md =
      "\n## Mean over runs\n\nMean ± sample standard deviation (min–max) over the runs of each "
      "method (seeds).\n\n| method | runs | accuracy | speedup (mean) | speedup (geomean) | % of "
      "oracle |\n|---|---:|---:|---:|---:|---:|\n";
  for (const RepeatedScores& g : groups) {
    if (g.runs.size() < 2) continue;
    Spread accuracy = g.accuracy;
    for (double* v : {&accuracy.mean, &accuracy.sd, &accuracy.min, &accuracy.max}) *v *= 100.0;
    md += "| " + mdCell(g.group) + " | " + std::to_string(g.runs.size()) + " | " +
          spreadText(accuracy, "%") + " | " + spreadText(g.speedupMean, "\xC3\x97") + " | " +
          spreadText(g.speedupGeomean, "\xC3\x97") + " | " + spreadText(g.oraclePercent, "%") +
          " |\n";
  }
  return md;
}

std::string trainingMarkdown(const std::vector<model::FoldTraining>& folds) {
  size_t collapsed = 0, oneDevice = 0;
  for (const model::FoldTraining& f : folds) {
    collapsed += f.training.collapsed();
    oneDevice += f.predictsOneDevice();
  }
  std::string md = "\n## Training per fold\n\n";
  md += std::to_string(folds.size()) + " fold models; " + std::to_string(collapsed) +
        " collapsed (final training accuracy more than " +
        formatNumber("%.0f", model::kCollapseMargin * 100) +
        " points below the fold's best epoch); " + std::to_string(oneDevice) +
        " predict one device for all their test rows.\n\n";
  md +=
      "| method | seed | fold | final train acc. | best train acc. (epoch) | test acc. | test rows "
      "GPU/all | |\n|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const model::FoldTraining& f : folds) {
    std::string flags;
    if (f.training.collapsed()) flags += "collapsed ";
    if (f.predictsOneDevice()) flags += "one device ";
    if (!f.pretrainCurve.empty()) {
      flags += "pretrained (next-token loss " + formatNumber("%.2f", f.pretrainCurve.front()) +
               " \xE2\x86\x92 " + formatNumber("%.2f", f.pretrainCurve.back()) + ") ";
    }
    if (f.training.keptEpoch > 0) {
      flags += "kept epoch " + std::to_string(f.training.keptEpoch) + " (validation " +
               percent(f.training.keptValidationAccuracy) + ")";
    }
    md += "| " + mdCell(f.method) + " | " + std::to_string(f.seed) + " | " +
          std::to_string(f.fold) + " | " + percent(f.training.finalAccuracy) + " | " +
          percent(f.training.bestAccuracy) + " (" + std::to_string(f.training.bestEpoch) + ") | " +
          percent(f.testAccuracy()) + " | " + std::to_string(f.predictedGpu) + "/" +
          std::to_string(f.testRows) + " | " + flags + " |\n";
  }
  return md;
}

/// The calibration of the methods with probabilities, or "" when none has them.
std::string calibrationMarkdown(const std::vector<MethodScores>& scores) {
  std::string table;
  for (const MethodScores& method : scores) {
    if (method.overall.calibrationError < 0) continue;
    table += "| " + mdCell(method.method) + " | " +
             formatNumber("%.3f", method.overall.calibrationError) + " | " +
             percent(method.overall.accuracy) + " |\n";
  }
  if (table.empty()) return table;
  return "\n## Calibration\n\nExpected calibration error (" + std::to_string(kCalibrationBins) +
         " equal bins of the probability each method gave the device it chose: the mean gap "
         "between how sure it said it was and how often it was right; 0 is perfect). "
         "reliability.svg draws the bins, calibration.csv holds them.\n\n| method | ECE | "
         "accuracy |\n|---|---:|---:|\n" +
         table;
}

std::string summaryMarkdown(const std::string& platform, const DevmapReportContext& context,
                            const std::vector<data::DevmapRow>& rows,
                            const std::vector<int>& foldOfRow,
                            const std::vector<std::string>& staticDevice,
                            const std::vector<MethodScores>& scores,
                            const std::vector<RepeatedScores>& groups) {
  std::map<int, std::string> staticOfFold;
  for (size_t i = 0; i < rows.size(); ++i) staticOfFold[foldOfRow[i]] = staticDevice[i];
  size_t cpuFolds = 0;
  for (const auto& entry : staticOfFold) cpuFolds += entry.second == "CPU" ? 1 : 0;
  const size_t gpuFolds = staticOfFold.size() - cpuFolds;

  std::string md = "# Device mapping: " + platform + "\n\n";
  if (!context.protocol.empty()) md += "Protocol: " + context.protocol + ".\n";
  if (!context.command.empty()) md += "Command: `" + context.command + "`\n";
  for (const std::string& setting : context.settings) md += "- " + setting + "\n";
  if (!context.command.empty() || !context.settings.empty()) md += "\n";
  md += std::to_string(rows.size()) + " rows in " + std::to_string(staticOfFold.size()) +
        " folds. Speedups are over the static mapping (the majority oracle of each training "
        "fold: CPU in " +
        std::to_string(cpuFolds) + ", GPU in " + std::to_string(gpuFolds) +
        " folds); % of oracle = mean speedup / the oracle's mean speedup.\n\n";
  // Measured data with ties: each method's accuracy without them too (the paper's has none).
  const bool ties = !scores.empty() && scores.front().overall.ties > 0;
  if (ties) {
    md += std::to_string(scores.front().overall.ties) +
          " rows are ties (the two devices within their noise), right for every method; the "
          "last column is the accuracy over the other " +
          std::to_string(scores.front().overall.rows - scores.front().overall.ties) + " rows.\n\n";
  }
  md += std::string(
            "| method | accuracy | suite mean | speedup (mean) | speedup (geomean) | % "
            "of oracle |") +
        (ties ? " accuracy without ties |" : "") + "\n";
  md += std::string("|---|---:|---:|---:|---:|---:|") + (ties ? "---:|" : "") + "\n";
  bool references = false;
  for (const MethodScores& method : scores) {
    const DevmapScores& s = method.overall;
    const bool reference = method.method == "hand-tree" || method.method == "memory" ||
                           method.method == "hand-boosted";
    references = references || reference;
    md += "| " + mdCell(method.method) + (reference ? " (reference)" : "") + " | " +
          percent(s.accuracy) + " | " + percent(suiteMeanAccuracy(method)) + " | " +
          times(s.speedupMean) + " | " + times(s.speedupGeomean) + " | " +
          formatNumber("%.1f%%", s.oraclePercent) + " |" +
          (ties ? " " + percent(s.accuracyUntied) + " |" : "") + "\n";
  }
  if (references) {
    md +=
        "\nReferences, not methods of their own: hand-tree is a depth-5 tree on the raw static "
        "counts with log2(transfer) and log2(wgsize) (what hand features alone score); memory "
        "gives a row whose source was seen in training the label of that source's nearest data "
        "size, any other row the static mapping (what memory alone scores).\n";
    if (std::any_of(scores.begin(), scores.end(),
                    [](const MethodScores& m) { return m.method == "hand-boosted"; })) {
      md +=
          "hand-boosted is XGBoost's boosted trees (50 rounds, depth 6) on the hand-tree's "
          "features.\n";
    }
  }
  md += calibrationMarkdown(scores);
  if (std::any_of(groups.begin(), groups.end(), [](const auto& g) { return g.runs.size() > 1; })) {
    md += repeatedMarkdown(groups);
  }
  md += "\n## Per suite\n";
  const std::vector<const char*> titles = {"Accuracy", "Mean speedup over the static mapping"};
  for (size_t table = 0; table < titles.size(); ++table) {
    md += std::string("\n### ") + titles[table] + "\n\n| suite | rows |";
    std::string rule = "|---|---:|";
    for (const MethodScores& method : scores) {
      md += " " + mdCell(method.method) + " |";
      rule += "---:|";
    }
    md += "\n" + rule + "\n";
    for (size_t s = 0; s < scores.front().suites.size(); ++s) {
      const SuiteScores& suite = scores.front().suites[s];
      md += "| " + mdCell(suite.suite) + " | " + std::to_string(suite.scores.rows) + " |";
      for (const MethodScores& method : scores) {
        const DevmapScores& v = method.suites[s].scores;
        md += " " + (table == 0 ? percent(v.accuracy) : times(v.speedupMean)) + " |";
      }
      md += "\n";
    }
  }
  if (!context.folds.empty()) md += trainingMarkdown(context.folds);
  return md;
}

std::string metricsCsv(const std::vector<MethodScores>& scores) {
  std::string csv = data::csvRow({"method", "suite", "accuracy", "speedup_mean", "speedup_geomean",
                                  "oracle_pct", "rows", "ece"});
  auto line = [&](const std::string& method, const std::string& suite, const DevmapScores& s) {
    csv +=
        data::csvRow({method, suite, formatNumber("%.4f", s.accuracy * 100.0),
                      formatNumber("%.6f", s.speedupMean), formatNumber("%.6f", s.speedupGeomean),
                      formatNumber("%.4f", s.oraclePercent), std::to_string(s.rows),
                      s.calibrationError >= 0 ? formatNumber("%.6f", s.calibrationError) : ""});
  };
  for (const MethodScores& method : scores) {
    line(method.method, "all", method.overall);
    for (const SuiteScores& suite : method.suites) line(method.method, suite.suite, suite.scores);
  }
  return csv;
}

std::string runsCsv(const std::vector<RepeatedScores>& groups) {
  std::vector<std::string> header = {"method", "runs"};
  for (const char* metric : {"accuracy", "speedup_mean", "speedup_geomean", "oracle_pct", "ece"}) {
    for (const char* stat : {"mean", "sd", "min", "max"}) {
      header.push_back(std::string(metric) + "_" + stat);
    }
  }
  std::string csv = data::csvRow(header);
  for (const RepeatedScores& g : groups) {
    std::vector<std::string> fields = {g.group, std::to_string(g.runs.size())};
    const std::pair<const Spread*, double> metrics[] = {{&g.accuracy, 100.0},
                                                        {&g.speedupMean, 1.0},
                                                        {&g.speedupGeomean, 1.0},
                                                        {&g.oraclePercent, 1.0}};
    for (const auto& [spread, scale] : metrics) {
      for (double value : {spread->mean, spread->sd, spread->min, spread->max}) {
        fields.push_back(formatNumber("%.6f", value * scale));
      }
    }
    for (double value : {g.calibrationError.mean, g.calibrationError.sd, g.calibrationError.min,
                         g.calibrationError.max}) {
      fields.push_back(g.hasCalibration ? formatNumber("%.6f", value) : "");
    }
    csv += data::csvRow(fields);
  }
  return csv;
}

std::string trainingCsv(const std::vector<model::FoldTraining>& folds) {
  std::string csv = data::csvRow(
      {"method", "seed", "fold", "epochs", "final_loss", "final_train_accuracy",
       "best_train_accuracy", "best_epoch", "test_rows", "test_accuracy", "predicted_gpu",
       "collapsed", "kept_epoch", "validation_accuracy", "pretrain_epochs", "pretrain_final_loss"});
  for (const model::FoldTraining& f : folds) {
    csv += data::csvRow(
        {f.method, std::to_string(f.seed), std::to_string(f.fold),
         std::to_string(f.training.epochs), formatNumber("%.6f", f.training.finalLoss),
         formatNumber("%.4f", f.training.finalAccuracy * 100.0),
         formatNumber("%.4f", f.training.bestAccuracy * 100.0),
         std::to_string(f.training.bestEpoch), std::to_string(f.testRows),
         formatNumber("%.4f", f.testAccuracy() * 100.0), std::to_string(f.predictedGpu),
         f.training.collapsed() ? "1" : "0",
         f.training.keptEpoch > 0 ? std::to_string(f.training.keptEpoch) : "",
         f.training.keptEpoch > 0 ? formatNumber("%.4f", f.training.keptValidationAccuracy * 100.0)
                                  : "",
         f.pretrainCurve.empty() ? "" : std::to_string(f.pretrainCurve.size()),
         f.pretrainCurve.empty() ? "" : formatNumber("%.6f", f.pretrainCurve.back())});
  }
  return csv;
}

std::string predictionsCsv(const std::vector<data::DevmapRow>& rows,
                           const std::vector<int>& foldOfRow,
                           const std::vector<MethodPredictions>& methods) {
  std::vector<std::string> header = {"index", "benchmark", "dataset", "oracle", "fold"};
  for (const MethodPredictions& method : methods) header.push_back(method.name);
  for (const MethodPredictions& method : methods) {
    if (!method.gpuProbability.empty()) header.push_back(method.name + "_p_gpu");
  }
  std::string csv = data::csvRow(header);
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::string> fields = {std::to_string(rows[i].index), rows[i].benchmark,
                                       rows[i].dataset, rows[i].oracle,
                                       std::to_string(foldOfRow[i])};
    for (const MethodPredictions& method : methods) fields.push_back(method.devices[i]);
    for (const MethodPredictions& method : methods) {
      if (!method.gpuProbability.empty()) {
        fields.push_back(formatNumber("%.6f", method.gpuProbability[i]));
      }
    }
    csv += data::csvRow(fields);
  }
  return csv;
}

/// Each method with probabilities: its calibration over every row.
std::vector<std::pair<std::string, CalibrationScores>> calibrationOfMethods(
    const std::vector<data::DevmapRow>& rows, const std::vector<MethodPredictions>& methods) {
  std::vector<size_t> all(rows.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::vector<std::pair<std::string, CalibrationScores>> calibrated;
  for (const MethodPredictions& method : methods) {
    if (method.gpuProbability.empty()) continue;
    calibrated.emplace_back(method.name,
                            devmapCalibration(rows, method.devices, method.gpuProbability, all));
  }
  return calibrated;
}

std::string calibrationCsv(
    const std::vector<std::pair<std::string, CalibrationScores>>& calibrated) {
  std::string csv = data::csvRow(
      {"method", "bin_lower", "bin_upper", "rows", "mean_probability", "accuracy", "ece"});
  for (const auto& [method, scores] : calibrated) {
    for (const ReliabilityBin& bin : scores.bins) {
      csv += data::csvRow({method, formatNumber("%.1f", bin.lower), formatNumber("%.1f", bin.upper),
                           std::to_string(bin.rows),
                           bin.rows > 0 ? formatNumber("%.6f", bin.meanConfidence) : "",
                           bin.rows > 0 ? formatNumber("%.6f", bin.accuracy) : "",
                           formatNumber("%.6f", scores.expectedError)});
    }
  }
  return csv;
}

std::string devmapReliabilitySvg(
    const std::vector<std::pair<std::string, CalibrationScores>>& calibrated,
    const std::string& title) {
  std::vector<ReliabilityCurve> curves;
  for (const auto& [method, scores] : calibrated) {
    ReliabilityCurve curve{method + " (ECE " + formatNumber("%.3f", scores.expectedError) + ")",
                           {}};
    for (const ReliabilityBin& bin : scores.bins) {
      if (bin.rows > 0) curve.points.push_back({bin.meanConfidence, bin.accuracy, bin.rows});
    }
    curves.push_back(std::move(curve));
  }
  return reliabilitySvg(curves, title);
}

std::string benchmarkCsv(const std::vector<BenchmarkSpeedup>& speedups,
                         const std::vector<MethodPredictions>& methods) {
  std::vector<std::string> header = {"benchmark", "suite", "datasets"};
  for (const MethodPredictions& method : methods) header.push_back(method.name);
  header.push_back("oracle");
  std::string csv = data::csvRow(header);
  for (const BenchmarkSpeedup& b : speedups) {
    std::vector<std::string> fields = {b.benchmark, b.suite, std::to_string(b.datasets)};
    for (double value : b.methods) fields.push_back(formatNumber("%.6f", value));
    fields.push_back(formatNumber("%.6f", b.oracle));
    csv += data::csvRow(fields);
  }
  return csv;
}

/// Short x-axis label of a benchmark: program/kernel without suite and version, at most 30 bytes.
std::string benchmarkLabel(const std::string& benchmark) {
  const data::BenchmarkName name = data::parseBenchmarkName(benchmark);
  std::string label = name.program.empty() ? name.kernel : name.program + "/" + name.kernel;
  if (label.size() > 30) label = label.substr(0, 28) + "..";
  return label;
}

}  // namespace

std::string accuracyPerSuiteSvg(const std::vector<MethodScores>& scores, const std::string& title) {
  if (scores.empty()) throw EvaluationError("accuracy plot: no methods");
  std::vector<BarGroup> groups;
  std::vector<std::string> methodNames;
  for (const MethodScores& method : scores) methodNames.push_back(method.method);
  for (size_t g = 0; g <= scores.front().suites.size(); ++g) {
    const bool all = g == scores.front().suites.size();
    BarGroup group{all ? "All" : scores.front().suites[g].suite, {}};
    for (const MethodScores& method : scores) {
      group.values.push_back(all ? method.overall.accuracy : method.suites[g].scores.accuracy);
    }
    groups.push_back(std::move(group));
  }
  BarAxis axis;
  axis.title = "Accuracy";
  axis.tickLabel = [](double v) {
    return std::to_string(static_cast<int>(std::lround(v * 100))) + "%";
  };
  axis.barLabel = [](double v) { return formatNumber("%.0f", v * 100); };
  axis.hoverText = percent;
  return groupedBarsSvg(groups, methodNames, axis, title);
}

std::string speedupPerBenchmarkSvg(const std::vector<BenchmarkSpeedup>& speedups,
                                   const std::vector<std::string>& methodNames,
                                   const std::string& title) {
  std::vector<SpeedupPoint> points;
  for (const BenchmarkSpeedup& b : speedups) {
    points.push_back({benchmarkLabel(b.benchmark), b.benchmark, b.suite, b.methods, b.oracle});
  }
  return speedupPointsSvg(points, methodNames, "Speedup over static mapping (log scale)", title);
}

void writeDevmapReport(const std::string& dir, const std::string& platform,
                       const std::vector<data::DevmapRow>& rows, const std::vector<int>& foldOfRow,
                       const std::vector<MethodPredictions>& methods,
                       const DevmapReportContext& context) {
  if (methods.empty()) throw EvaluationError("report: no methods to report");
  if (rows.empty()) throw EvaluationError("report: no rows to report");
  std::set<std::string> names;
  for (const MethodPredictions& method : methods) {
    if (method.name.empty() || method.name == "oracle" || !names.insert(method.name).second) {
      throw EvaluationError("report: method name '" + method.name +
                            "' is empty, repeated or reserved (oracle)");
    }
  }
  std::vector<MethodPredictions> withOracle = methods;
  withOracle.push_back({"oracle", oracleDevices(rows)});
  const std::vector<MethodScores> scores = scoreMethods(rows, foldOfRow, withOracle);
  const std::vector<MethodScores> methodScores(scores.begin(), scores.end() - 1);
  const std::vector<RepeatedScores> groups = repeatedScores(methods, methodScores);
  const std::vector<BenchmarkSpeedup> perBenchmark = speedupPerBenchmark(rows, foldOfRow, methods);
  std::vector<std::string> methodNames;
  for (const MethodPredictions& method : methods) methodNames.push_back(method.name);

  const std::filesystem::path folder(dir);
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw EvaluationError(dir + ": cannot create report folder: " + ec.message());
  std::string summary = summaryMarkdown(platform, context, rows, foldOfRow,
                                        staticDevices(rows, foldOfRow), scores, groups);
  if (!context.novelty.nearestDistance.empty()) {
    summary += noveltyMarkdown(noveltySplits(rows, methods, context.novelty), context.novelty);
    writeFileAtomically(folder / "novelty.csv", noveltyCsv(rows, foldOfRow, context.novelty));
  }
  writeFileAtomically(folder / "summary.md", summary);
  writeFileAtomically(folder / "metrics.csv", metricsCsv(scores));
  writeFileAtomically(folder / "predictions.csv", predictionsCsv(rows, foldOfRow, methods));
  writeFileAtomically(folder / "runs.csv", runsCsv(groups));
  if (!context.folds.empty()) {
    writeFileAtomically(folder / "training.csv", trainingCsv(context.folds));
  }
  writeFileAtomically(folder / "speedup_per_benchmark.csv", benchmarkCsv(perBenchmark, methods));
  const auto calibrated = calibrationOfMethods(rows, methods);
  if (!calibrated.empty()) {
    writeFileAtomically(folder / "calibration.csv", calibrationCsv(calibrated));
    writeFileAtomically(folder / "reliability.svg",
                        devmapReliabilitySvg(calibrated, "Reliability: " + platform));
  }
  writeFileAtomically(
      folder / "accuracy_per_suite.svg",
      accuracyPerSuiteSvg(methodScores, "Device mapping accuracy per suite: " + platform));
  writeFileAtomically(
      folder / "speedup_per_benchmark.svg",
      speedupPerBenchmarkSvg(perBenchmark, methodNames,
                             "Speedup per benchmark over the static mapping: " + platform));
}

std::string devmapScoreTable(const std::string& platform, const std::string& protocol,
                             const std::vector<data::DevmapRow>& rows,
                             const std::vector<int>& foldOfRow,
                             const std::vector<MethodPredictions>& methods) {
  std::string text = platform + ", " + protocol + ", " + std::to_string(rows.size()) + " rows\n";
  char line[400];
  const auto scores = scoreMethods(rows, foldOfRow, methods);
  const bool anyCalibration = std::any_of(
      scores.begin(), scores.end(), [](const auto& m) { return m.overall.calibrationError >= 0; });
  std::snprintf(line, sizeof line, "%-20s %9s %10s %9s %9s %9s%s\n", "method", "accuracy",
                "suite mean", "speedup", "geomean", "%oracle", anyCalibration ? "    ECE" : "");
  text += line;
  for (const auto& method : scores) {
    std::snprintf(line, sizeof line, "%-20s %8.1f%% %9.1f%% %8.2fx %8.2fx %8.1f%%",
                  method.method.c_str(), 100 * method.overall.accuracy,
                  100 * suiteMeanAccuracy(method), method.overall.speedupMean,
                  method.overall.speedupGeomean, method.overall.oraclePercent);
    text += line;
    if (anyCalibration) {
      text += method.overall.calibrationError >= 0
                  ? formatNumber(" %6.3f", method.overall.calibrationError)
                  : std::string("      -");
    }
    if (method.overall.ties > 0) {
      std::snprintf(line, sizeof line, "  (%.1f%% of the %zu rows that are not ties)",
                    100 * method.overall.accuracyUntied, method.overall.rows - method.overall.ties);
      text += line;
    }
    text += "\n";
  }
  for (const auto& group : repeatedScores(methods, scores)) {
    if (group.runs.size() < 2) continue;
    std::snprintf(line, sizeof line,
                  "%s, mean of %zu runs: accuracy %.1f%% (sd %.1f, %.1f-%.1f), speedup %.2fx (sd "
                  "%.2f), %%oracle %.1f%% (sd %.1f)\n",
                  group.group.c_str(), group.runs.size(), 100 * group.accuracy.mean,
                  100 * group.accuracy.sd, 100 * group.accuracy.min, 100 * group.accuracy.max,
                  group.speedupMean.mean, group.speedupMean.sd, group.oraclePercent.mean,
                  group.oraclePercent.sd);
    text += line;
  }
  return text;
}

std::string foldTrainingReport(const model::FoldTraining& f, int folds,
                               const std::string& gpuDevice) {
  const std::string where = gpuDevice == "GPU" ? "GPU" : "on " + gpuDevice.substr(0, 100);
  char line[400];
  std::snprintf(line, sizeof line,
                "%s fold %d/%d: test accuracy %.1f%% (%zu of %zu rows %s); training accuracy "
                "%.1f%%, best %.1f%% at epoch %d",
                f.method.c_str(), f.fold + 1, folds, 100 * f.testAccuracy(), f.predictedGpu,
                f.testRows, where.c_str(), 100 * f.training.finalAccuracy,
                100 * f.training.bestAccuracy, f.training.bestEpoch);
  std::string report = line;
  if (f.training.collapsed()) {
    std::snprintf(line, sizeof line,
                  "\nwarning: %s fold %d collapsed: its training accuracy ended %.1f points "
                  "below its best epoch",
                  f.method.c_str(), f.fold + 1,
                  100 * (f.training.bestAccuracy - f.training.finalAccuracy));
    report += line;
  }
  return report;
}

std::string deeptuneEpochLine(int run, int runs, int fold, int folds, const model::EpochProgress& p,
                              double etaSeconds) {
  char validation[40] = "";
  if (p.validationAccuracy >= 0) {
    std::snprintf(validation, sizeof validation, "  validation %.3f", p.validationAccuracy);
  }
  char line[240];
  std::snprintf(line, sizeof line,
                "deeptune run %d/%d fold %d/%d  epoch %d/%d  loss %.4f  accuracy %.3f%s  ETA %s",
                run + 1, runs, fold + 1, folds, p.epoch, p.epochs, p.loss, p.accuracy, validation,
                data::formatDuration(etaSeconds).c_str());
  return line;
}

}  // namespace deeptune::evaluation
