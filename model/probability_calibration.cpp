// Calibrating a predictor's GPU probability: fitting and applying Platt scaling, temperature and
// isotonic regression.
#include "model/probability_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "model/model_error.hpp"

namespace deeptune::model {
namespace {

constexpr size_t kMaxKnots = 4096;

double logit(double p) {
  const double kept = std::clamp(p, 1e-6, 1 - 1e-6);
  return std::log(kept / (1 - kept));
}

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

/// Platt's targets: a 1 as (positives + 1) / (positives + 2), a 0 as 1 / (negatives + 2).
std::vector<double> smoothedTargets(const std::vector<int>& labels) {
  const double positives = static_cast<double>(std::count(labels.begin(), labels.end(), 1));
  const double negatives = static_cast<double>(labels.size()) - positives;
  std::vector<double> targets;
  for (int label : labels) {
    targets.push_back(label == 1 ? (positives + 1) / (positives + 2) : 1 / (negatives + 2));
  }
  return targets;
}

/// The mean log loss of sigmoid(scale · x + shift) against `targets`.
double logLoss(const std::vector<double>& x, const std::vector<double>& targets, double scale,
               double shift) {
  double loss = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double z = scale * x[i] + shift;
    // log(1 + e^z) - t z, computed without overflow
    loss += (z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z))) - targets[i] * z;
  }
  return loss / static_cast<double>(x.size());
}

/// Newton's method on (scale, shift), or on scale alone, with step halving: the log loss is
/// convex in both, so this finds its minimum.
void fitLogistic(const std::vector<double>& x, const std::vector<double>& targets, bool withShift,
                 double& scale, double& shift) {
  scale = 1;
  shift = 0;
  double loss = logLoss(x, targets, scale, shift);
  for (int iteration = 0; iteration < 100; ++iteration) {
    double gScale = 0, gShift = 0, hSS = 0, hSB = 0, hBB = 1e-12;
    for (size_t i = 0; i < x.size(); ++i) {
      const double q = sigmoid(scale * x[i] + shift);
      const double residual = q - targets[i], weight = q * (1 - q);
      gScale += residual * x[i];
      gShift += residual;
      hSS += weight * x[i] * x[i];
      hSB += weight * x[i];
      hBB += weight;
    }
    hSS += 1e-12;
    double stepScale = 0, stepShift = 0;
    if (withShift) {
      const double determinant = hSS * hBB - hSB * hSB;
      if (!(determinant > 0)) break;
      stepScale = (hBB * gScale - hSB * gShift) / determinant;
      stepShift = (hSS * gShift - hSB * gScale) / determinant;
    } else {
      stepScale = gScale / hSS;
    }
    double fraction = 1;
    bool improved = false;
    for (int halving = 0; halving < 30; ++halving, fraction /= 2) {
      const double trialScale = scale - fraction * stepScale;
      const double trialShift = shift - fraction * stepShift;
      const double trial = logLoss(x, targets, trialScale, trialShift);
      if (trial < loss) {
        improved = loss - trial > 1e-12;
        scale = trialScale;
        shift = trialShift;
        loss = trial;
        break;
      }
    }
    if (!improved) break;
  }
}

/// Pool-adjacent-violators over the probabilities' order: each block's mean probability and
/// mean target, non-decreasing.
void fitIsotonic(const std::vector<double>& probabilities, const std::vector<double>& targets,
                 std::vector<double>& knots, std::vector<double>& values) {
  std::vector<size_t> order(probabilities.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return probabilities[a] < probabilities[b]; });
  struct Block {
    double minP = 0, maxP = 0, sumT = 0, count = 0;
    double mean() const { return sumT / count; }
    void pool(const Block& next) {
      maxP = next.maxP;
      sumT += next.sumT;
      count += next.count;
    }
  };
  // Equal probabilities share a block first (the map is a function of p), then neighbours pool
  // while they are out of order.
  std::vector<Block> unique;
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t i = order[k];
    if (k == 0 || probabilities[order[k - 1]] != probabilities[i]) {
      unique.push_back({probabilities[i], probabilities[i], 0, 0});
    }
    unique.back().sumT += targets[i];
    unique.back().count += 1;
  }
  std::vector<Block> blocks;
  for (const Block& next : unique) {
    blocks.push_back(next);
    while (blocks.size() > 1 && blocks[blocks.size() - 2].mean() >= blocks.back().mean()) {
      const Block last = blocks.back();
      blocks.pop_back();
      blocks.back().pool(last);
    }
  }
  // Each block is flat from its lowest to its highest probability, linear between blocks; past
  // kMaxKnots / 2 blocks, neighbours pool (a coarser map, a bounded file).
  knots.clear();
  values.clear();
  const size_t stride = (blocks.size() + kMaxKnots / 2 - 1) / (kMaxKnots / 2);
  for (size_t b = 0; b < blocks.size(); b += stride) {
    Block merged = blocks[b];
    for (size_t c = b + 1; c < std::min(blocks.size(), b + stride); ++c) merged.pool(blocks[c]);
    knots.push_back(merged.minP);
    values.push_back(merged.mean());
    if (merged.maxP > merged.minP) {
      knots.push_back(merged.maxP);
      values.push_back(merged.mean());
    }
  }
}

}  // namespace

double ProbabilityCalibration::apply(double p) const {
  p = std::isnan(p) ? 0.5 : std::clamp(p, 0.0, 1.0);
  if (method == "platt" || method == "temperature") return sigmoid(scale * logit(p) + shift);
  if (method != "isotonic" || knots.empty()) return p;
  if (p <= knots.front()) return values.front();
  if (p >= knots.back()) return values.back();
  const size_t upper =
      static_cast<size_t>(std::upper_bound(knots.begin(), knots.end(), p) - knots.begin());
  const double left = knots[upper - 1], right = knots[upper];
  const double t = right > left ? (p - left) / (right - left) : 1;
  return values[upper - 1] + t * (values[upper] - values[upper - 1]);
}

bool ProbabilityCalibration::operator==(const ProbabilityCalibration& other) const {
  return method == other.method && scale == other.scale && shift == other.shift &&
         knots == other.knots && values == other.values;
}

const std::vector<std::string>& calibrationMethods() {
  static const std::vector<std::string> methods = {"none", "platt", "temperature", "isotonic"};
  return methods;
}

ProbabilityCalibration fitCalibration(const std::string& method,
                                      const std::vector<double>& probabilities,
                                      const std::vector<int>& labels) {
  const auto& known = calibrationMethods();
  if (std::find(known.begin(), known.end(), method) == known.end()) {
    throw ModelError("calibration: unknown method '" + method +
                     "' (none, platt, temperature, isotonic)");
  }
  if (probabilities.size() != labels.size() || probabilities.empty()) {
    throw ModelError("calibration: " + std::to_string(probabilities.size()) +
                     " probabilities for " + std::to_string(labels.size()) +
                     " labels (at least one of each needed)");
  }
  for (size_t i = 0; i < labels.size(); ++i) {
    if ((labels[i] != 0 && labels[i] != 1) || !(probabilities[i] >= 0 && probabilities[i] <= 1)) {
      throw ModelError("calibration: example " + std::to_string(i + 1) + " has label " +
                       std::to_string(labels[i]) + " and probability " +
                       std::to_string(probabilities[i]) + " (0 or 1, and 0 to 1, expected)");
    }
  }
  ProbabilityCalibration calibration;
  calibration.method = method;
  if (method == "none") return calibration;
  const std::vector<double> targets = smoothedTargets(labels);
  if (method == "isotonic") {
    fitIsotonic(probabilities, targets, calibration.knots, calibration.values);
    return calibration;
  }
  std::vector<double> x;
  for (double p : probabilities) x.push_back(logit(p));
  fitLogistic(x, targets, method == "platt", calibration.scale, calibration.shift);
  // A scale at or below 0 would reverse the predictor's order: keep it monotone.
  calibration.scale = std::max(calibration.scale, 1e-6);
  return calibration;
}

void checkCalibration(const ProbabilityCalibration& c) {
  const auto& known = calibrationMethods();
  if (std::find(known.begin(), known.end(), c.method) == known.end()) {
    throw ModelError("calibration: unknown method '" + c.method + "'");
  }
  const bool logistic = c.method == "platt" || c.method == "temperature";
  if (!std::isfinite(c.scale) || !std::isfinite(c.shift) || c.scale <= 0 ||
      (!logistic && (c.scale != 1 || c.shift != 0)) ||
      (c.method == "temperature" && c.shift != 0)) {
    throw ModelError("calibration: " + c.method + " with scale " + std::to_string(c.scale) +
                     " and shift " + std::to_string(c.shift));
  }
  if (c.method != "isotonic") {
    if (!c.knots.empty() || !c.values.empty()) {
      throw ModelError("calibration: " + c.method + " holds no knots");
    }
    return;
  }
  if (c.knots.empty() || c.knots.size() > kMaxKnots || c.values.size() != c.knots.size()) {
    throw ModelError("calibration: isotonic with " + std::to_string(c.knots.size()) +
                     " knots and " + std::to_string(c.values.size()) +
                     " values (1 to 4096 of each, as many)");
  }
  for (size_t i = 0; i < c.knots.size(); ++i) {
    const bool inRange = c.knots[i] >= 0 && c.knots[i] <= 1 && c.values[i] >= 0 && c.values[i] <= 1;
    const bool ordered = i == 0 || (c.knots[i] > c.knots[i - 1] && c.values[i] >= c.values[i - 1]);
    if (!inRange || !ordered) {
      throw ModelError("calibration: isotonic knot " + std::to_string(i + 1) +
                       " out of [0, 1] or of order");
    }
  }
}

}  // namespace deeptune::model
