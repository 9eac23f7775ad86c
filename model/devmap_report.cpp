// Device-mapping evaluation report: Markdown and CSV tables plus two hand-drawn SVG plots.
#include "model/devmap_report.hpp"

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
#include "data/file_io.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {

namespace {

// Colours of the methods, in order (matplotlib's "tab10").
const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

const char* colour(size_t method) {
  return kPalette[method % (sizeof kPalette / sizeof *kPalette)];
}

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

std::string xmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

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
    throw ModelError(e.what());
  }
}

std::string svgText(double x, double y, const std::string& text, const std::string& attributes) {
  return "<text x=\"" + format("%.1f", x) + "\" y=\"" + format("%.1f", y) + "\" " + attributes +
         ">" + xmlEscape(text) + "</text>\n";
}

std::string svgLine(double x1, double y1, double x2, double y2, const std::string& attributes) {
  return "<line x1=\"" + format("%.1f", x1) + "\" y1=\"" + format("%.1f", y1) + "\" x2=\"" +
         format("%.1f", x2) + "\" y2=\"" + format("%.1f", y2) + "\" " + attributes + "/>\n";
}

std::string svgHeader(double width, double height) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
         format("%.0f", width) + "\" height=\"" + format("%.0f", height) + "\" viewBox=\"0 0 " +
         format("%.0f", width) + " " + format("%.0f", height) +
         "\" font-family=\"Helvetica, Arial, sans-serif\">\n"
         "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}

/// A row of legend entries (colour swatch + name) starting at (x, y); `oracle` adds a black dash.
std::string svgLegend(double x, double y, const std::vector<std::string>& names, bool oracle) {
  std::string out = "<g class=\"legend\">\n";
  for (size_t m = 0; m < names.size(); ++m) {
    out += "<rect x=\"" + format("%.1f", x) + "\" y=\"" + format("%.1f", y - 9) +
           "\" width=\"10\" height=\"10\" fill=\"" + colour(m) + "\"/>\n";
    out += svgText(x + 14, y, names[m], "font-size=\"11\"");
    x += 24 + 6.5 * static_cast<double>(names[m].size());
  }
  if (oracle) {
    out += svgLine(x, y - 4, x + 12, y - 4, "stroke=\"black\" stroke-width=\"2\"");
    out += svgText(x + 16, y, "oracle", "font-size=\"11\"");
  }
  return out + "</g>\n";
}

std::string percent(double fraction) { return format("%.1f%%", fraction * 100.0); }
std::string times(double speedup) { return format("%.2f\xC3\x97", speedup); }  // U+00D7

/// "85.4% ± 0.7 (84.6–86.0)": mean ± sd (min–max) of values in `unit` ("%" or "×").
std::string spreadText(const Spread& s, const char* unit) {
  const bool percentUnit = std::string(unit) == "%";
  const char* pattern = percentUnit ? "%.1f" : "%.2f";
  return format(pattern, s.mean) + unit + " ± " + format(pattern, s.sd) + " (" +
         format(pattern, s.min) + "\xE2\x80\x93" + format(pattern, s.max) + ")";  // en dash
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

std::string trainingMarkdown(const std::vector<FoldTraining>& folds) {
  size_t collapsed = 0, oneDevice = 0;
  for (const FoldTraining& f : folds) {
    collapsed += f.training.collapsed();
    oneDevice += f.predictsOneDevice();
  }
  std::string md = "\n## Training per fold\n\n";
  md += std::to_string(folds.size()) + " fold models; " + std::to_string(collapsed) +
        " collapsed (final training accuracy more than " + format("%.0f", kCollapseMargin * 100) +
        " points below the fold's best epoch); " + std::to_string(oneDevice) +
        " predict one device for all their test rows.\n\n";
  md +=
      "| method | seed | fold | final train acc. | best train acc. (epoch) | test acc. | test rows "
      "GPU/all | |\n|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const FoldTraining& f : folds) {
    std::string flags;
    if (f.training.collapsed()) flags += "collapsed ";
    if (f.predictsOneDevice()) flags += "one device";
    md += "| " + mdCell(f.method) + " | " + std::to_string(f.seed) + " | " +
          std::to_string(f.fold) + " | " + percent(f.training.finalAccuracy) + " | " +
          percent(f.training.bestAccuracy) + " (" + std::to_string(f.training.bestEpoch) + ") | " +
          percent(f.testAccuracy()) + " | " + std::to_string(f.predictedGpu) + "/" +
          std::to_string(f.testRows) + " | " + flags + " |\n";
  }
  return md;
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
  md += "| method | accuracy | speedup (mean) | speedup (geomean) | % of oracle |\n";
  md += "|---|---:|---:|---:|---:|\n";
  for (const MethodScores& method : scores) {
    const DevmapScores& s = method.overall;
    md += "| " + mdCell(method.method) + " | " + percent(s.accuracy) + " | " +
          times(s.speedupMean) + " | " + times(s.speedupGeomean) + " | " +
          format("%.1f%%", s.oraclePercent) + " |\n";
  }
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
  std::string csv = data::csvRow(
      {"method", "suite", "accuracy", "speedup_mean", "speedup_geomean", "oracle_pct", "rows"});
  auto line = [&](const std::string& method, const std::string& suite, const DevmapScores& s) {
    csv += data::csvRow({method, suite, format("%.4f", s.accuracy * 100.0),
                         format("%.6f", s.speedupMean), format("%.6f", s.speedupGeomean),
                         format("%.4f", s.oraclePercent), std::to_string(s.rows)});
  };
  for (const MethodScores& method : scores) {
    line(method.method, "all", method.overall);
    for (const SuiteScores& suite : method.suites) line(method.method, suite.suite, suite.scores);
  }
  return csv;
}

std::string runsCsv(const std::vector<RepeatedScores>& groups) {
  std::vector<std::string> header = {"method", "runs"};
  for (const char* metric : {"accuracy", "speedup_mean", "speedup_geomean", "oracle_pct"}) {
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
        fields.push_back(format("%.6f", value * scale));
      }
    }
    csv += data::csvRow(fields);
  }
  return csv;
}

std::string trainingCsv(const std::vector<FoldTraining>& folds) {
  std::string csv = data::csvRow({"method", "seed", "fold", "epochs", "final_loss",
                                  "final_train_accuracy", "best_train_accuracy", "best_epoch",
                                  "test_rows", "test_accuracy", "predicted_gpu", "collapsed"});
  for (const FoldTraining& f : folds) {
    csv += data::csvRow({f.method, std::to_string(f.seed), std::to_string(f.fold),
                         std::to_string(f.training.epochs), format("%.6f", f.training.finalLoss),
                         format("%.4f", f.training.finalAccuracy * 100.0),
                         format("%.4f", f.training.bestAccuracy * 100.0),
                         std::to_string(f.training.bestEpoch), std::to_string(f.testRows),
                         format("%.4f", f.testAccuracy() * 100.0), std::to_string(f.predictedGpu),
                         f.training.collapsed() ? "1" : "0"});
  }
  return csv;
}

std::string predictionsCsv(const std::vector<data::DevmapRow>& rows,
                           const std::vector<int>& foldOfRow,
                           const std::vector<MethodPredictions>& methods) {
  std::vector<std::string> header = {"index", "benchmark", "dataset", "oracle", "fold"};
  for (const MethodPredictions& method : methods) header.push_back(method.name);
  std::string csv = data::csvRow(header);
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::string> fields = {std::to_string(rows[i].index), rows[i].benchmark,
                                       rows[i].dataset, rows[i].oracle,
                                       std::to_string(foldOfRow[i])};
    for (const MethodPredictions& method : methods) fields.push_back(method.devices[i]);
    csv += data::csvRow(fields);
  }
  return csv;
}

std::string benchmarkCsv(const std::vector<BenchmarkSpeedup>& speedups,
                         const std::vector<MethodPredictions>& methods) {
  std::vector<std::string> header = {"benchmark", "suite", "datasets"};
  for (const MethodPredictions& method : methods) header.push_back(method.name);
  header.push_back("oracle");
  std::string csv = data::csvRow(header);
  for (const BenchmarkSpeedup& b : speedups) {
    std::vector<std::string> fields = {b.benchmark, b.suite, std::to_string(b.datasets)};
    for (double value : b.methods) fields.push_back(format("%.6f", value));
    fields.push_back(format("%.6f", b.oracle));
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
  if (scores.empty()) throw ModelError("accuracy plot: no methods");
  std::vector<std::string> groups, methodNames;
  for (const SuiteScores& suite : scores.front().suites) groups.push_back(suite.suite);
  groups.push_back("All");
  for (const MethodScores& method : scores) methodNames.push_back(method.method);

  const double barWidth = 14, left = 60, top = 60, plotHeight = 300, gap = 18;
  const double groupWidth = std::max(static_cast<double>(scores.size()) * barWidth + gap, 78.0);
  const double plotWidth = groupWidth * static_cast<double>(groups.size());
  const double width = std::max(left + plotWidth + 20, 480.0), height = top + plotHeight + 50;
  const double bottom = top + plotHeight;

  std::string svg = svgHeader(width, height);
  svg += svgText(left, 22, title, "font-size=\"15\" font-weight=\"bold\"");
  svg += svgLegend(left, 44, methodNames, false);
  for (int tick = 0; tick <= 100; tick += 20) {
    const double y = bottom - plotHeight * tick / 100.0;
    svg += svgLine(left, y, left + plotWidth, y, "stroke=\"#dddddd\"");
    svg += svgText(left - 6, y + 4, std::to_string(tick) + "%",
                   "font-size=\"11\" text-anchor=\"end\"");
  }
  svg += svgText(16, top + plotHeight / 2, "Accuracy",
                 "font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 16 " +
                     format("%.1f", top + plotHeight / 2) + ")\"");
  for (size_t g = 0; g < groups.size(); ++g) {
    const double groupLeft = left + groupWidth * static_cast<double>(g) +
                             (groupWidth - barWidth * static_cast<double>(scores.size())) / 2;
    for (size_t m = 0; m < scores.size(); ++m) {
      const DevmapScores& s =
          g + 1 < groups.size() ? scores[m].suites[g].scores : scores[m].overall;
      const double h = plotHeight * s.accuracy, x = groupLeft + barWidth * static_cast<double>(m);
      svg += "<rect class=\"bar\" x=\"" + format("%.1f", x) + "\" y=\"" +
             format("%.1f", bottom - h) + "\" width=\"" + format("%.1f", barWidth - 1) +
             "\" height=\"" + format("%.1f", h) + "\" fill=\"" + colour(m) + "\"><title>" +
             xmlEscape(scores[m].method + ", " + groups[g] + ": " + percent(s.accuracy)) +
             "</title></rect>\n";
      svg += svgText(x + (barWidth - 1) / 2, bottom - h - 3, format("%.0f", s.accuracy * 100),
                     "font-size=\"8\" text-anchor=\"middle\"");
    }
    svg += svgText(left + groupWidth * (static_cast<double>(g) + 0.5), bottom + 18, groups[g],
                   "font-size=\"11\" text-anchor=\"middle\"");
  }
  svg += svgLine(left, bottom, left + plotWidth, bottom, "stroke=\"black\"");
  svg += svgLine(left, top, left, bottom, "stroke=\"black\"");
  return svg + "</svg>\n";
}

std::string speedupPerBenchmarkSvg(const std::vector<BenchmarkSpeedup>& speedups,
                                   const std::vector<std::string>& methodNames,
                                   const std::string& title) {
  double lo = 1, hi = 1;
  for (const BenchmarkSpeedup& b : speedups) {
    if (b.methods.size() != methodNames.size()) {
      throw ModelError("speedup plot: benchmark " + b.benchmark + " has " +
                       std::to_string(b.methods.size()) + " speedups for " +
                       std::to_string(methodNames.size()) + " methods");
    }
    for (double v : b.methods) lo = std::min(lo, v), hi = std::max(hi, v);
    lo = std::min(lo, b.oracle);
    hi = std::max(hi, b.oracle);
  }
  if (!(lo > 0) || !std::isfinite(hi)) throw ModelError("speedup plot: non-positive speedup");
  const int lowDecade = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  int highDecade = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  if (highDecade <= lowDecade) highDecade = lowDecade + 1;

  const double step = 14, left = 70, top = 80, plotHeight = 340, labelSpace = 190;
  const double plotWidth = step * static_cast<double>(std::max<size_t>(speedups.size(), 1));
  const double width = std::max(left + plotWidth + 20, 520.0);
  const double height = top + plotHeight + labelSpace, bottom = top + plotHeight;
  auto yOf = [&](double v) {
    return bottom - plotHeight * (std::log10(v) - lowDecade) / (highDecade - lowDecade);
  };

  std::string svg = svgHeader(width, height);
  svg += svgText(left, 22, title, "font-size=\"15\" font-weight=\"bold\"");
  svg += svgLegend(left, 44, methodNames, true);

  // Suite bands: shaded alternately, named at the top of the plot.
  for (size_t b = 0, band = 0; b < speedups.size(); ++band) {
    size_t e = b;
    while (e < speedups.size() && speedups[e].suite == speedups[b].suite) ++e;
    const double x = left + step * static_cast<double>(b);
    const double w = step * static_cast<double>(e - b);
    svg += "<rect class=\"suite\" x=\"" + format("%.1f", x) + "\" y=\"" + format("%.1f", top) +
           "\" width=\"" + format("%.1f", w) + "\" height=\"" + format("%.1f", plotHeight) +
           "\" fill=\"" + (band % 2 == 0 ? "#f4f4f4" : "#ffffff") + "\"/>\n";
    svg +=
        svgText(x + w / 2, top - 6, speedups[b].suite, "font-size=\"11\" text-anchor=\"middle\"");
    b = e;
  }
  // Log-scale grid: every decade labelled, 2× and 5× lines labelled when there are few decades.
  for (int d = lowDecade; d <= highDecade; ++d) {
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, d);
      if (d == highDecade && m > 1) break;
      const bool major = m == 1.0;
      const double y = yOf(v);
      svg += svgLine(left, y, left + plotWidth, y,
                     std::string("stroke=\"") +
                         (v == 1.0 ? "#555555"
                          : major  ? "#cccccc"
                                   : "#e6e6e6") +
                         "\"");
      if (major || highDecade - lowDecade <= 3) {
        svg += svgText(left - 6, y + 4, format(v < 1 ? "%.2g" : "%.0f", v) + "\xC3\x97",
                       "font-size=\"11\" text-anchor=\"end\"");
      }
    }
  }
  svg += svgText(16, top + plotHeight / 2, "Speedup over static mapping (log scale)",
                 "font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 16 " +
                     format("%.1f", top + plotHeight / 2) + ")\"");
  const double spread =
      methodNames.size() > 1 ? 6.0 / static_cast<double>(methodNames.size() - 1) : 0;
  for (size_t b = 0; b < speedups.size(); ++b) {
    const BenchmarkSpeedup& s = speedups[b];
    const double cx = left + step * (static_cast<double>(b) + 0.5);
    svg += svgLine(cx - 5, yOf(s.oracle), cx + 5, yOf(s.oracle),
                   "class=\"oracle\" stroke=\"black\" stroke-width=\"2\"");
    for (size_t m = 0; m < s.methods.size(); ++m) {
      const double x =
          cx + (static_cast<double>(m) - (static_cast<double>(s.methods.size()) - 1) / 2) * spread;
      svg += "<circle class=\"marker\" cx=\"" + format("%.1f", x) + "\" cy=\"" +
             format("%.1f", yOf(s.methods[m])) + "\" r=\"3\" fill=\"" + colour(m) +
             "\" fill-opacity=\"0.8\"><title>" +
             xmlEscape(s.benchmark + ", " + methodNames[m] + ": " + times(s.methods[m])) +
             "</title></circle>\n";
    }
    const double ly = bottom + 8;
    svg += svgText(cx + 3, ly, benchmarkLabel(s.benchmark),
                   "font-size=\"9\" text-anchor=\"end\" transform=\"rotate(-90 " +
                       format("%.1f", cx + 3) + " " + format("%.1f", ly) + ")\"");
  }
  svg += svgLine(left, bottom, left + plotWidth, bottom, "stroke=\"black\"");
  svg += svgLine(left, top, left, bottom, "stroke=\"black\"");
  return svg + "</svg>\n";
}

void writeDevmapReport(const std::string& dir, const std::string& platform,
                       const std::vector<data::DevmapRow>& rows, const std::vector<int>& foldOfRow,
                       const std::vector<MethodPredictions>& methods,
                       const DevmapReportContext& context) {
  if (methods.empty()) throw ModelError("report: no methods to report");
  if (rows.empty()) throw ModelError("report: no rows to report");
  std::set<std::string> names;
  for (const MethodPredictions& method : methods) {
    if (method.name.empty() || method.name == "oracle" || !names.insert(method.name).second) {
      throw ModelError("report: method name '" + method.name +
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
  if (ec) throw ModelError(dir + ": cannot create report folder: " + ec.message());
  writeFileAtomically(folder / "summary.md",
                      summaryMarkdown(platform, context, rows, foldOfRow,
                                      staticDevices(rows, foldOfRow), scores, groups));
  writeFileAtomically(folder / "metrics.csv", metricsCsv(scores));
  writeFileAtomically(folder / "predictions.csv", predictionsCsv(rows, foldOfRow, methods));
  writeFileAtomically(folder / "runs.csv", runsCsv(groups));
  if (!context.folds.empty()) {
    writeFileAtomically(folder / "training.csv", trainingCsv(context.folds));
  }
  writeFileAtomically(folder / "speedup_per_benchmark.csv", benchmarkCsv(perBenchmark, methods));
  writeFileAtomically(
      folder / "accuracy_per_suite.svg",
      accuracyPerSuiteSvg(methodScores, "Device mapping accuracy per suite: " + platform));
  writeFileAtomically(
      folder / "speedup_per_benchmark.svg",
      speedupPerBenchmarkSvg(perBenchmark, methodNames,
                             "Speedup per benchmark over the static mapping: " + platform));
}

}  // namespace deeptune::model
