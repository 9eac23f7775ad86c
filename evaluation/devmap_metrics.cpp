// Device-mapping metrics: accuracy and speedup over the static mapping, overall, per suite, per
// benchmark.
#include "evaluation/devmap_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "baselines/static_mapping.hpp"
#include "evaluation/calibration_metrics.hpp"
#include "evaluation/evaluation_error.hpp"

namespace deeptune::evaluation {

namespace {

void checkMethods(const std::vector<data::DevmapRow>& rows,
                  const std::vector<MethodPredictions>& methods) {
  for (const MethodPredictions& method : methods) {
    if (method.devices.size() != rows.size()) {
      throw EvaluationError("method '" + method.name +
                            "': " + std::to_string(method.devices.size()) + " predictions for " +
                            std::to_string(rows.size()) + " rows");
    }
  }
}

}  // namespace

double runtimeOn(const data::DevmapRow& row, const std::string& device) {
  if (device == "CPU") return row.runtimeCpu;
  if (device == "GPU") return row.runtimeGpu;
  throw EvaluationError("row " + std::to_string(row.index) + ": device '" + device +
                        "' is neither CPU nor GPU");
}

std::vector<std::string> staticDevices(const std::vector<data::DevmapRow>& rows,
                                       const std::vector<int>& foldOfRow) {
  if (foldOfRow.size() != rows.size()) {
    throw EvaluationError("static devices: " + std::to_string(foldOfRow.size()) +
                          " fold numbers for " + std::to_string(rows.size()) + " rows");
  }
  size_t totalGpu = 0;
  std::map<int, std::pair<size_t, size_t>> inFold;  // fold -> (rows, GPU rows)
  for (size_t i = 0; i < rows.size(); ++i) {
    const bool gpu = rows[i].oracle == "GPU";
    totalGpu += gpu ? 1 : 0;
    auto& counts = inFold[foldOfRow[i]];
    ++counts.first;
    counts.second += gpu ? 1 : 0;
  }
  std::vector<std::string> result;
  result.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& counts = inFold[foldOfRow[i]];
    const size_t train = rows.size() - counts.first;
    if (train == 0) {
      throw EvaluationError("static devices: fold " + std::to_string(foldOfRow[i]) +
                            " holds every row, so its training set is empty");
    }
    result.push_back(baselines::majorityOfCounts(totalGpu - counts.second, train));
  }
  return result;
}

std::vector<std::string> oracleDevices(const std::vector<data::DevmapRow>& rows) {
  std::vector<std::string> result;
  result.reserve(rows.size());
  for (const data::DevmapRow& row : rows) result.push_back(row.oracle);
  return result;
}

DevmapScores scoreRows(const std::vector<data::DevmapRow>& rows,
                       const std::vector<std::string>& staticDevice,
                       const std::vector<std::string>& predicted,
                       const std::vector<size_t>& subset) {
  if (staticDevice.size() != rows.size() || predicted.size() != rows.size()) {
    throw EvaluationError("scores: " + std::to_string(rows.size()) + " rows but " +
                          std::to_string(staticDevice.size()) + " static devices and " +
                          std::to_string(predicted.size()) + " predictions");
  }
  DevmapScores scores;
  if (subset.empty()) return scores;
  size_t correct = 0, ties = 0, correctUntied = 0;
  double sum = 0, logSum = 0, oracleSum = 0;
  for (size_t i : subset) {
    if (i >= rows.size())
      throw EvaluationError("scores: row " + std::to_string(i) + " out of range");
    const data::DevmapRow& row = rows[i];
    const double base = runtimeOn(row, staticDevice[i]);
    const double speedup = base / runtimeOn(row, predicted[i]);
    const bool right = predicted[i] == row.oracle;
    correct += right || row.tie ? 1 : 0;
    ties += row.tie ? 1 : 0;
    correctUntied += right && !row.tie ? 1 : 0;
    sum += speedup;
    logSum += std::log(speedup);
    oracleSum += base / runtimeOn(row, row.oracle);
  }
  const double n = static_cast<double>(subset.size());
  scores.rows = subset.size();
  scores.accuracy = static_cast<double>(correct) / n;
  scores.ties = ties;
  scores.accuracyUntied = ties < subset.size()
                              ? static_cast<double>(correctUntied) / (n - static_cast<double>(ties))
                              : 0;
  scores.speedupMean = sum / n;
  scores.speedupGeomean = std::exp(logSum / n);
  scores.oracleSpeedupMean = oracleSum / n;
  scores.oraclePercent = scores.speedupMean / scores.oracleSpeedupMean * 100.0;
  return scores;
}

std::string suiteOf(const data::DevmapRow& row) {
  const std::string suite = data::parseBenchmarkName(row.benchmark).suite;
  return suite.empty() ? "other" : data::suiteDisplayName(suite);
}

std::vector<std::string> suitesOf(const std::vector<data::DevmapRow>& rows) {
  std::vector<std::string> suites;
  for (const data::DevmapRow& row : rows) suites.push_back(suiteOf(row));
  std::sort(suites.begin(), suites.end());
  suites.erase(std::unique(suites.begin(), suites.end()), suites.end());
  return suites;
}

std::vector<MethodScores> scoreMethods(const std::vector<data::DevmapRow>& rows,
                                       const std::vector<int>& foldOfRow,
                                       const std::vector<MethodPredictions>& methods) {
  checkMethods(rows, methods);
  const std::vector<std::string> staticDevice = staticDevices(rows, foldOfRow);
  const std::vector<std::string> suites = suitesOf(rows);
  std::vector<size_t> all(rows.size());
  std::vector<std::vector<size_t>> ofSuite(suites.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    all[i] = i;
    const auto s = std::lower_bound(suites.begin(), suites.end(), suiteOf(rows[i]));
    ofSuite[static_cast<size_t>(s - suites.begin())].push_back(i);
  }
  std::vector<MethodScores> result;
  for (const MethodPredictions& method : methods) {
    MethodScores scores;
    scores.method = method.name;
    const auto scored = [&](const std::vector<size_t>& subset) {
      DevmapScores values = scoreRows(rows, staticDevice, method.devices, subset);
      if (!method.gpuProbability.empty()) {
        values.calibrationError =
            devmapCalibration(rows, method.devices, method.gpuProbability, subset).expectedError;
      }
      return values;
    };
    scores.overall = scored(all);
    for (size_t s = 0; s < suites.size(); ++s)
      scores.suites.push_back({suites[s], scored(ofSuite[s])});
    result.push_back(std::move(scores));
  }
  return result;
}

Spread spreadOf(const std::vector<double>& values) {
  Spread spread;
  if (values.empty()) return spread;
  spread.min = *std::min_element(values.begin(), values.end());
  spread.max = *std::max_element(values.begin(), values.end());
  double sum = 0;
  for (double value : values) sum += value;
  spread.mean = sum / static_cast<double>(values.size());
  if (values.size() > 1) {
    double squares = 0;
    for (double value : values) squares += (value - spread.mean) * (value - spread.mean);
    spread.sd = std::sqrt(squares / static_cast<double>(values.size() - 1));
  }
  return spread;
}

std::vector<RepeatedScores> repeatedScores(const std::vector<MethodPredictions>& methods,
                                           const std::vector<MethodScores>& scores) {
  if (scores.size() < methods.size()) {
    throw EvaluationError("repeated scores: " + std::to_string(scores.size()) + " scores for " +
                          std::to_string(methods.size()) + " methods");
  }
  std::vector<RepeatedScores> groups;
  std::vector<std::vector<const DevmapScores*>> members;
  for (size_t m = 0; m < methods.size(); ++m) {
    const std::string group = methods[m].group.empty() ? methods[m].name : methods[m].group;
    auto found = std::find_if(groups.begin(), groups.end(),
                              [&](const RepeatedScores& g) { return g.group == group; });
    if (found == groups.end()) {
      groups.push_back({group, {}, {}, {}, {}, {}, {}, false});
      members.emplace_back();
      found = groups.end() - 1;
    }
    found->runs.push_back(methods[m].name);
    members[static_cast<size_t>(found - groups.begin())].push_back(&scores[m].overall);
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    auto spread = [&](double DevmapScores::*field) {
      std::vector<double> values;
      for (const DevmapScores* s : members[g]) values.push_back(s->*field);
      return spreadOf(values);
    };
    groups[g].accuracy = spread(&DevmapScores::accuracy);
    groups[g].speedupMean = spread(&DevmapScores::speedupMean);
    groups[g].speedupGeomean = spread(&DevmapScores::speedupGeomean);
    groups[g].oraclePercent = spread(&DevmapScores::oraclePercent);
    groups[g].hasCalibration =
        std::all_of(members[g].begin(), members[g].end(),
                    [](const DevmapScores* s) { return s->calibrationError >= 0; });
    if (groups[g].hasCalibration)
      groups[g].calibrationError = spread(&DevmapScores::calibrationError);
  }
  return groups;
}

std::vector<BenchmarkSpeedup> speedupPerBenchmark(const std::vector<data::DevmapRow>& rows,
                                                  const std::vector<int>& foldOfRow,
                                                  const std::vector<MethodPredictions>& methods) {
  checkMethods(rows, methods);
  const std::vector<std::string> staticDevice = staticDevices(rows, foldOfRow);
  std::map<std::pair<std::string, std::string>, BenchmarkSpeedup> byName;  // (suite, benchmark)
  for (size_t i = 0; i < rows.size(); ++i) {
    const data::DevmapRow& row = rows[i];
    BenchmarkSpeedup& entry = byName[{suiteOf(row), row.benchmark}];
    if (entry.datasets == 0) {
      entry.benchmark = row.benchmark;
      entry.suite = suiteOf(row);
      entry.methods.assign(methods.size(), 0.0);
    }
    ++entry.datasets;
    const double base = runtimeOn(row, staticDevice[i]);
    for (size_t m = 0; m < methods.size(); ++m) {
      entry.methods[m] += base / runtimeOn(row, methods[m].devices[i]);
    }
    entry.oracle += base / runtimeOn(row, row.oracle);
  }
  std::vector<BenchmarkSpeedup> result;
  for (auto& [key, entry] : byName) {
    const double n = static_cast<double>(entry.datasets);
    for (double& value : entry.methods) value /= n;
    entry.oracle /= n;
    result.push_back(std::move(entry));
  }
  return result;
}

double suiteMeanAccuracy(const MethodScores& method) {
  if (method.suites.empty()) return 0;
  double sum = 0;
  for (const SuiteScores& suite : method.suites) sum += suite.scores.accuracy;
  return sum / static_cast<double>(method.suites.size());
}

}  // namespace deeptune::evaluation
