// Hand-drawn SVG plots shared by the evaluation reports: grouped bars, log-scale speedups and
// reliability diagrams.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace deeptune::evaluation {

/// printf of one number (reports' tables and plots), e.g. formatNumber("%.2f", 1.5) == "1.50".
std::string formatNumber(const char* pattern, double value);

/// One group of bars: one value per method, in the order of the method names.
struct BarGroup {
  std::string label;
  std::vector<double> values;
};

/// The value axis of a bar chart: from 0 to `max` with grid lines every `step`.
struct BarAxis {
  std::string title;  ///< e.g. "Accuracy"
  double max = 1;
  double step = 0.2;
  std::function<std::string(double)> tickLabel;  ///< text of a grid line
  std::function<std::string(double)> barLabel;   ///< text above a bar
  std::function<std::string(double)> hoverText;  ///< the bar's <title>
};

/// Grouped bar chart: one bar (<rect class="bar">) per method in each group, coloured per
/// method, with a legend. Throws EvaluationError when a group's values do not match the methods.
std::string groupedBarsSvg(const std::vector<BarGroup>& groups,
                           const std::vector<std::string>& methodNames, const BarAxis& axis,
                           const std::string& title);

/// One point on the x axis of a speedup plot: a value per method and the oracle's.
struct SpeedupPoint {
  std::string label;            ///< under the axis, rotated (short)
  std::string name;             ///< in the markers' hover text (whole)
  std::string band;             ///< consecutive points of one band are shaded together
  std::vector<double> methods;  ///< one speedup per method, in the order of the method names
  double oracle = 1;
};

/// Speedups on a log scale: one marker (<circle class="marker">) per point and method, a dash
/// (class="oracle") for the oracle, bands named at the top. Throws EvaluationError on a point with
/// the wrong number of values or a speedup that is not positive and finite.
std::string speedupPointsSvg(const std::vector<SpeedupPoint>& points,
                             const std::vector<std::string>& methodNames, const std::string& yTitle,
                             const std::string& title);

/// One method's curve in a reliability diagram: a point per bin that holds answers.
struct ReliabilityCurve {
  std::string name;  ///< the legend's text, e.g. "shipped (ECE 0.031)"
  struct Point {
    double confidence = 0, accuracy = 0;  ///< in [0, 1]
    size_t rows = 0;
  };
  std::vector<Point> points;  ///< in increasing confidence
};

/// Reliability diagram: accuracy against stated confidence, both from 0 to 1, the diagonal (a
/// calibrated method) dashed, one polyline and a marker (<circle class="marker">, its bin's rows
/// in the hover text) per point of each curve, the legend on the right. Throws EvaluationError
/// for no curve or a point outside [0, 1].
std::string reliabilitySvg(const std::vector<ReliabilityCurve>& curves, const std::string& title);

}  // namespace deeptune::evaluation
