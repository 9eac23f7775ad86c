// Device-mapping metrics: accuracy and speedup over the static mapping, overall, per suite, per
// benchmark.
#pragma once

#include <string>
#include <vector>

#include "data/datasets.hpp"

namespace deeptune::evaluation {

/// One method's cross-validated predictions: "CPU" or "GPU" per row of the evaluated rows.
struct MethodPredictions {
  std::string name;  ///< e.g. "static", "grewe", "deeptune", or "deeptune-s1204" for one seed
  std::vector<std::string> devices;
  /// Runs of one method with different seeds share a group (see repeatedScores); "" = the name.
  std::string group;
  /// The method's probability that the GPU is faster, one per row; empty for a method without
  /// one (its calibration is then not reported).
  std::vector<double> gpuProbability;
};

/// Runtime (ms) of `row` on "CPU" (runtimeCpu) or "GPU" (runtimeGpu); EvaluationError otherwise.
double runtimeOn(const data::DevmapRow& row, const std::string& device);

/// The static mapping's device for each row: the majority oracle of the rows outside the row's
/// fold (ties → GPU), i.e. what the static baseline trained on that row's training fold predicts.
/// Throws EvaluationError on a size mismatch or when a fold holds every row.
std::vector<std::string> staticDevices(const std::vector<data::DevmapRow>& rows,
                                       const std::vector<int>& foldOfRow);

/// The oracle's device of each row (the `oracle` column).
std::vector<std::string> oracleDevices(const std::vector<data::DevmapRow>& rows);

/// Metrics of one method over a set of rows. Speedup of a row = runtime(its static device) /
/// runtime(the predicted device); the oracle's speedup is computed the same way.
struct DevmapScores {
  size_t rows = 0;
  double accuracy = 0;           ///< fraction of rows predicted as the oracle (or tied), in [0, 1]
  size_t ties = 0;               ///< rows whose devices are within their noise (measured data)
  double accuracyUntied = 0;     ///< accuracy over the rows that are not ties
  double speedupMean = 0;        ///< arithmetic mean of the rows' speedups
  double speedupGeomean = 0;     ///< geometric mean of the rows' speedups
  double oracleSpeedupMean = 0;  ///< arithmetic mean of the oracle's speedups
  double oraclePercent = 0;      ///< speedupMean / oracleSpeedupMean × 100
  /// The expected calibration error of the method's probabilities on these rows
  /// (evaluation/calibration_metrics.hpp); -1 for a method without probabilities.
  double calibrationError = -1;
};

/// Scores of `predicted` on rows[subset] (all zero for an empty subset). `staticDevice` and
/// `predicted` hold one device per row of `rows`. Throws EvaluationError on size mismatches, an
/// index out of range or a device other than CPU/GPU.
DevmapScores scoreRows(const std::vector<data::DevmapRow>& rows,
                       const std::vector<std::string>& staticDevice,
                       const std::vector<std::string>& predicted,
                       const std::vector<size_t>& subset);

/// The paper's name of the row's suite (suiteDisplayName of parseBenchmarkName().suite), or
/// "other" for a benchmark name that does not parse.
std::string suiteOf(const data::DevmapRow& row);

/// The distinct suiteOf() names of `rows`, sorted.
std::vector<std::string> suitesOf(const std::vector<data::DevmapRow>& rows);

struct SuiteScores {
  std::string suite;  ///< display name, see suiteOf()
  DevmapScores scores;
};

/// One method's scores over all rows and per suite (suites in suitesOf() order).
struct MethodScores {
  std::string method;
  DevmapScores overall;
  std::vector<SuiteScores> suites;
};

/// The mean of `method`'s per-suite accuracies, each suite weighing the same (NPB's 527 of the
/// paper's 680 rows otherwise decide a figure alone), in [0, 1]; 0 without suites.
double suiteMeanAccuracy(const MethodScores& method);

/// Scores every method against the static devices of `foldOfRow` (see staticDevices()), with
/// the calibration error of those that have probabilities.
std::vector<MethodScores> scoreMethods(const std::vector<data::DevmapRow>& rows,
                                       const std::vector<int>& foldOfRow,
                                       const std::vector<MethodPredictions>& methods);

/// Mean, sample standard deviation (n - 1; 0 for one value), minimum and maximum.
struct Spread {
  double mean = 0, sd = 0, min = 0, max = 0;
};
Spread spreadOf(const std::vector<double>& values);

/// The overall scores of the runs of one group of methods (e.g. one method, several seeds).
struct RepeatedScores {
  std::string group;
  std::vector<std::string> runs;  ///< the runs' method names, in order
  Spread accuracy, speedupMean, speedupGeomean, oraclePercent;
  /// Of the runs' calibration errors when every run has one (hasCalibration), else zero.
  Spread calibrationError;
  bool hasCalibration = false;
};

/// One entry per group of `methods` (MethodPredictions::group, or the name when empty), in order
/// of first appearance. `scores` are scoreMethods() of the same methods (extra trailing entries,
/// such as an oracle row, are ignored). Throws EvaluationError if scores are missing.
std::vector<RepeatedScores> repeatedScores(const std::vector<MethodPredictions>& methods,
                                           const std::vector<MethodScores>& scores);

/// Mean speedup over the datasets of one benchmark (a `benchmark` value: one kernel).
struct BenchmarkSpeedup {
  std::string benchmark;
  std::string suite;            ///< see suiteOf()
  size_t datasets = 0;          ///< rows averaged
  std::vector<double> methods;  ///< one mean speedup per method, in the order given
  double oracle = 0;            ///< the oracle's mean speedup
};

/// Per-benchmark mean speedups, sorted by suite then benchmark name.
std::vector<BenchmarkSpeedup> speedupPerBenchmark(const std::vector<data::DevmapRow>& rows,
                                                  const std::vector<int>& foldOfRow,
                                                  const std::vector<MethodPredictions>& methods);

}  // namespace deeptune::evaluation
