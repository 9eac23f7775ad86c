// The thread-coarsening evaluation report: per-kernel predictions, per-run and per-device tables.
#pragma once

#include <string>
#include <vector>

#include "data/coarsening_kernels.hpp"
#include "evaluation/coarsening_prediction.hpp"

namespace deeptune::evaluation {

/// One method on one device over its runs: the mean speedup of each run, their spread.
struct CoarseningScores {
  std::string device;  ///< "all" for the mean over devices
  std::string method;
  std::vector<double> runMeans;     ///< mean speedup over the kernels, per run
  std::vector<double> runGeomeans;  ///< geometric mean, per run
  double oracleMean = 1;            ///< mean speedup of the best factors
  double mean() const;
  double ofOracle() const { return mean() / oracleMean; }
};

/// Scores per (device, method) in the predictions' order, then per method over all devices
/// (each run's mean over the devices' means).
std::vector<CoarseningScores> coarseningScores(
    const std::vector<CoarseningPrediction>& predictions);

/// How the report was made (printed in summary.md).
struct CoarseningReportContext {
  std::string command;
  std::vector<std::string> settings;
  std::vector<std::string> notes;  ///< e.g. how the data's errata were handled
};

/// Writes DIR/predictions.csv (one row per device, method, run and kernel), DIR/runs.csv (each
/// run's mean and geomean per device and method), DIR/speedup_per_kernel.csv (each kernel's mean
/// speedup over runs per method), DIR/speedup_per_device.svg (grouped bars: mean speedup per
/// device and over all, the oracle's beside), DIR/speedup_per_kernel.svg (log-scale markers per
/// held-out kernel, devices as bands) and DIR/summary.md (tables per device and overall with the
/// runs' spread, each learned method against fixed, the runs' agreement, a per-kernel table per
/// device with each run's factor). Throws EvaluationError if a file cannot be written.
void writeCoarseningReport(const std::string& dir,
                           const std::vector<CoarseningPrediction>& predictions,
                           const CoarseningReportContext& context);

/// What a person reads after an evaluation: each method's mean speedup over all devices and its
/// share of the oracle's, one line each.
std::string coarseningScoreTable(const std::vector<CoarseningScores>& scores);

/// The progress line of one trained prediction: "3/68 trainings: Tahiti magni run 0, sgemm ->
/// factor 4 (1.25x)".
std::string coarseningProgressLine(const CoarseningPrediction& prediction, size_t done,
                                   size_t total);

}  // namespace deeptune::evaluation
