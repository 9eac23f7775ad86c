// Hand-drawn SVG plots shared by the evaluation reports: grouped bars, log-scale speedups and
// reliability diagrams.
#include "evaluation/report_plots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "evaluation/evaluation_error.hpp"

namespace deeptune::evaluation {
namespace {

// Colours of the methods, in order (matplotlib's "tab10").
const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

const char* colour(size_t method) {
  return kPalette[method % (sizeof kPalette / sizeof *kPalette)];
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

std::string svgText(double x, double y, const std::string& text, const std::string& attributes) {
  return "<text x=\"" + formatNumber("%.1f", x) + "\" y=\"" + formatNumber("%.1f", y) + "\" " +
         attributes + ">" + xmlEscape(text) + "</text>\n";
}

std::string svgLine(double x1, double y1, double x2, double y2, const std::string& attributes) {
  return "<line x1=\"" + formatNumber("%.1f", x1) + "\" y1=\"" + formatNumber("%.1f", y1) +
         "\" x2=\"" + formatNumber("%.1f", x2) + "\" y2=\"" + formatNumber("%.1f", y2) + "\" " +
         attributes + "/>\n";
}

std::string svgHeader(double width, double height) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
         formatNumber("%.0f", width) + "\" height=\"" + formatNumber("%.0f", height) +
         "\" viewBox=\"0 0 " + formatNumber("%.0f", width) + " " + formatNumber("%.0f", height) +
         "\" font-family=\"Helvetica, Arial, sans-serif\">\n"
         "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}

/// A row of legend entries (colour swatch + name) starting at (x, y); `oracle` adds a black dash.
std::string svgLegend(double x, double y, const std::vector<std::string>& names, bool oracle) {
  std::string out = "<g class=\"legend\">\n";
  for (size_t m = 0; m < names.size(); ++m) {
    out += "<rect x=\"" + formatNumber("%.1f", x) + "\" y=\"" + formatNumber("%.1f", y - 9) +
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

std::string times(double speedup) { return formatNumber("%.2f\xC3\x97", speedup); }  // U+00D7

}  // namespace

std::string formatNumber(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

std::string groupedBarsSvg(const std::vector<BarGroup>& groups,
                           const std::vector<std::string>& methodNames, const BarAxis& axis,
                           const std::string& title) {
  if (methodNames.empty()) throw EvaluationError("bar chart: no methods");
  for (const BarGroup& group : groups) {
    if (group.values.size() != methodNames.size()) {
      throw EvaluationError("bar chart: group " + group.label + " has " +
                            std::to_string(group.values.size()) + " values for " +
                            std::to_string(methodNames.size()) + " methods");
    }
  }
  const size_t methods = methodNames.size();
  const double barWidth = 14, left = 60, top = 60, plotHeight = 300, gap = 18;
  const double groupWidth = std::max(static_cast<double>(methods) * barWidth + gap, 78.0);
  const double plotWidth = groupWidth * static_cast<double>(groups.size());
  const double width = std::max(left + plotWidth + 20, 480.0), height = top + plotHeight + 50;
  const double bottom = top + plotHeight;

  std::string svg = svgHeader(width, height);
  svg += svgText(left, 22, title, "font-size=\"15\" font-weight=\"bold\"");
  svg += svgLegend(left, 44, methodNames, false);
  const int ticks = static_cast<int>(std::floor(axis.max / axis.step + 1e-9));
  for (int tick = 0; tick <= ticks; ++tick) {
    const double value = axis.step * tick;
    const double y = bottom - plotHeight * value / axis.max;
    svg += svgLine(left, y, left + plotWidth, y, "stroke=\"#dddddd\"");
    svg += svgText(left - 6, y + 4, axis.tickLabel(value), "font-size=\"11\" text-anchor=\"end\"");
  }
  svg += svgText(16, top + plotHeight / 2, axis.title,
                 "font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 16 " +
                     formatNumber("%.1f", top + plotHeight / 2) + ")\"");
  for (size_t g = 0; g < groups.size(); ++g) {
    const double groupLeft = left + groupWidth * static_cast<double>(g) +
                             (groupWidth - barWidth * static_cast<double>(methods)) / 2;
    for (size_t m = 0; m < methods; ++m) {
      const double value = groups[g].values[m];
      const double h = plotHeight * std::clamp(value / axis.max, 0.0, 1.0);
      const double x = groupLeft + barWidth * static_cast<double>(m);
      svg += "<rect class=\"bar\" x=\"" + formatNumber("%.1f", x) + "\" y=\"" +
             formatNumber("%.1f", bottom - h) + "\" width=\"" + formatNumber("%.1f", barWidth - 1) +
             "\" height=\"" + formatNumber("%.1f", h) + "\" fill=\"" + colour(m) + "\"><title>" +
             xmlEscape(methodNames[m] + ", " + groups[g].label + ": " + axis.hoverText(value)) +
             "</title></rect>\n";
      svg += svgText(x + (barWidth - 1) / 2, bottom - h - 3, axis.barLabel(value),
                     "font-size=\"8\" text-anchor=\"middle\"");
    }
    svg += svgText(left + groupWidth * (static_cast<double>(g) + 0.5), bottom + 18, groups[g].label,
                   "font-size=\"11\" text-anchor=\"middle\"");
  }
  svg += svgLine(left, bottom, left + plotWidth, bottom, "stroke=\"black\"");
  svg += svgLine(left, top, left, bottom, "stroke=\"black\"");
  return svg + "</svg>\n";
}

std::string speedupPointsSvg(const std::vector<SpeedupPoint>& speedups,
                             const std::vector<std::string>& methodNames, const std::string& yTitle,
                             const std::string& title) {
  double lo = 1, hi = 1;
  for (const SpeedupPoint& b : speedups) {
    if (b.methods.size() != methodNames.size()) {
      throw EvaluationError("speedup plot: " + b.label + " has " +
                            std::to_string(b.methods.size()) + " speedups for " +
                            std::to_string(methodNames.size()) + " methods");
    }
    for (double v : b.methods) lo = std::min(lo, v), hi = std::max(hi, v);
    lo = std::min(lo, b.oracle);
    hi = std::max(hi, b.oracle);
  }
  if (!(lo > 0) || !std::isfinite(hi)) throw EvaluationError("speedup plot: non-positive speedup");
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
    while (e < speedups.size() && speedups[e].band == speedups[b].band) ++e;
    const double x = left + step * static_cast<double>(b);
    const double w = step * static_cast<double>(e - b);
    svg += "<rect class=\"suite\" x=\"" + formatNumber("%.1f", x) + "\" y=\"" +
           formatNumber("%.1f", top) + "\" width=\"" + formatNumber("%.1f", w) + "\" height=\"" +
           formatNumber("%.1f", plotHeight) + "\" fill=\"" +
           (band % 2 == 0 ? "#f4f4f4" : "#ffffff") + "\"/>\n";
    svg += svgText(x + w / 2, top - 6, speedups[b].band, "font-size=\"11\" text-anchor=\"middle\"");
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
        svg += svgText(left - 6, y + 4, formatNumber(v < 1 ? "%.2g" : "%.0f", v) + "\xC3\x97",
                       "font-size=\"11\" text-anchor=\"end\"");
      }
    }
  }
  svg += svgText(16, top + plotHeight / 2, yTitle,
                 "font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 16 " +
                     formatNumber("%.1f", top + plotHeight / 2) + ")\"");
  const double spread =
      methodNames.size() > 1 ? 6.0 / static_cast<double>(methodNames.size() - 1) : 0;
  for (size_t b = 0; b < speedups.size(); ++b) {
    const SpeedupPoint& s = speedups[b];
    const double cx = left + step * (static_cast<double>(b) + 0.5);
    svg += svgLine(cx - 5, yOf(s.oracle), cx + 5, yOf(s.oracle),
                   "class=\"oracle\" stroke=\"black\" stroke-width=\"2\"");
    for (size_t m = 0; m < s.methods.size(); ++m) {
      const double x =
          cx + (static_cast<double>(m) - (static_cast<double>(s.methods.size()) - 1) / 2) * spread;
      svg += "<circle class=\"marker\" cx=\"" + formatNumber("%.1f", x) + "\" cy=\"" +
             formatNumber("%.1f", yOf(s.methods[m])) + "\" r=\"3\" fill=\"" + colour(m) +
             "\" fill-opacity=\"0.8\"><title>" +
             xmlEscape(s.name + ", " + methodNames[m] + ": " + times(s.methods[m])) +
             "</title></circle>\n";
    }
    const double ly = bottom + 8;
    svg += svgText(cx + 3, ly, s.label,
                   "font-size=\"9\" text-anchor=\"end\" transform=\"rotate(-90 " +
                       formatNumber("%.1f", cx + 3) + " " + formatNumber("%.1f", ly) + ")\"");
  }
  svg += svgLine(left, bottom, left + plotWidth, bottom, "stroke=\"black\"");
  svg += svgLine(left, top, left, bottom, "stroke=\"black\"");
  return svg + "</svg>\n";
}

std::string reliabilitySvg(const std::vector<ReliabilityCurve>& curves, const std::string& title) {
  if (curves.empty()) throw EvaluationError("reliability diagram: no methods");
  size_t longestName = 0;
  for (const ReliabilityCurve& curve : curves) {
    longestName = std::max(longestName, curve.name.size());
    for (const ReliabilityCurve::Point& point : curve.points) {
      if (!(point.confidence >= 0 && point.confidence <= 1 && point.accuracy >= 0 &&
            point.accuracy <= 1)) {
        throw EvaluationError("reliability diagram: " + curve.name + " has a point outside [0, 1]");
      }
    }
  }
  const double left = 60, top = 50, side = 360;
  const double legendLeft = left + side + 24;
  const double width = legendLeft + 30 + 6.5 * static_cast<double>(longestName);
  const double height = std::max(top + side + 50, top + 20.0 * static_cast<double>(curves.size()));
  const double bottom = top + side;
  auto xOf = [&](double v) { return left + side * v; };
  auto yOf = [&](double v) { return bottom - side * v; };

  std::string svg = svgHeader(width, height);
  svg += svgText(left, 22, title, "font-size=\"15\" font-weight=\"bold\"");
  for (int tick = 0; tick <= 10; ++tick) {
    const double v = tick / 10.0;
    svg += svgLine(left, yOf(v), left + side, yOf(v), "stroke=\"#eeeeee\"");
    svg += svgLine(xOf(v), top, xOf(v), bottom, "stroke=\"#eeeeee\"");
    if (tick % 2 == 0) {
      svg += svgText(left - 6, yOf(v) + 4, formatNumber("%.1f", v),
                     "font-size=\"11\" text-anchor=\"end\"");
      svg += svgText(xOf(v), bottom + 16, formatNumber("%.1f", v),
                     "font-size=\"11\" text-anchor=\"middle\"");
    }
  }
  svg += svgLine(xOf(0), yOf(0), xOf(1), yOf(1),
                 "class=\"diagonal\" stroke=\"#555555\" stroke-dasharray=\"5,4\"");
  svg += svgText(left + side / 2, bottom + 36, "Probability of the chosen device (mean per bin)",
                 "font-size=\"12\" text-anchor=\"middle\"");
  svg += svgText(16, top + side / 2, "Share of those answers that were right",
                 "font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 16 " +
                     formatNumber("%.1f", top + side / 2) + ")\"");
  for (size_t m = 0; m < curves.size(); ++m) {
    const ReliabilityCurve& curve = curves[m];
    std::string points;
    for (const ReliabilityCurve::Point& point : curve.points) {
      points += formatNumber("%.1f", xOf(point.confidence)) + "," +
                formatNumber("%.1f", yOf(point.accuracy)) + " ";
    }
    if (curve.points.size() > 1) {
      svg += "<polyline fill=\"none\" stroke=\"" + std::string(colour(m)) +
             "\" stroke-width=\"1.5\" points=\"" + points + "\"/>\n";
    }
    for (const ReliabilityCurve::Point& point : curve.points) {
      svg += "<circle class=\"marker\" cx=\"" + formatNumber("%.1f", xOf(point.confidence)) +
             "\" cy=\"" + formatNumber("%.1f", yOf(point.accuracy)) + "\" r=\"3.5\" fill=\"" +
             colour(m) + "\"><title>" +
             xmlEscape(curve.name + ": probability " + formatNumber("%.3f", point.confidence) +
                       ", right " + formatNumber("%.3f", point.accuracy) + " of " +
                       std::to_string(point.rows) + " answers") +
             "</title></circle>\n";
    }
    const double y = top + 8 + 20.0 * static_cast<double>(m);
    svg += "<rect x=\"" + formatNumber("%.1f", legendLeft) + "\" y=\"" +
           formatNumber("%.1f", y - 9) + "\" width=\"10\" height=\"10\" fill=\"" + colour(m) +
           "\"/>\n";
    svg += svgText(legendLeft + 14, y, curve.name, "font-size=\"11\"");
  }
  svg += svgLine(left, bottom, left + side, bottom, "stroke=\"black\"");
  svg += svgLine(left, top, left, bottom, "stroke=\"black\"");
  return svg + "</svg>\n";
}

}  // namespace deeptune::evaluation
