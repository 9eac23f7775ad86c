// What `evaluate` runs, checked before any training: the fold assignment of a protocol, the
// methods of each task, the baselines' predictions and the report folder.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "evaluation/cross_validation.hpp"
#include "evaluation/devmap_metrics.hpp"

namespace deeptune::evaluation {

/// The device-mapping methods evaluate knows, and the coarsening ones.
const std::vector<std::string>& devmapMethods();
const std::vector<std::string>& coarseningMethods();

/// The methods of a comma-separated `list`, each one of `known`. Throws EvaluationError naming an
/// unknown one (and `task`), or when the list names none.
std::vector<std::string> selectMethods(const std::string& list,
                                       const std::vector<std::string>& known,
                                       const std::string& task);

/// A device-mapping protocol: which fold each row is tested in, and what a method may see of
/// the data outside its fold's training rows.
struct DevmapProtocol {
  std::string name;  ///< folds, suite or kernel
  std::vector<int> foldOfRow;
  int folds = 0;
  std::string description;  ///< for reports, e.g. "leave one suite out"
  TrainingSubset subset;    ///< learning curves: the training sources each fold keeps
  /// The leakage rule: under a grouped protocol nothing of a test source may reach training, so
  /// each fold derives its own vocabulary from its training sources; the paper's folds keep the
  /// paper's vocabulary (every source of the data: tokens only, no labels).
  bool vocabularyPerFold = false;
  /// The report's sentence on what each method saw.
  std::string whatMethodsSaw() const;
};

/// Protocol `name`: "folds" (the assignment of `foldsPath`, e.g. folds-amd.csv), "suite" (leave
/// one suite out) or "kernel" (10 folds grouped by kernel source, shuffled with `seed`). Throws
/// EvaluationError for another name or "folds" without a file; data::DataError for a bad folds
/// file.
DevmapProtocol devmapProtocol(const std::string& name, const std::vector<data::DevmapRow>& rows,
                              const std::string& foldsPath, uint64_t seed);

/// The cross-validated predictions of `predictor`, named `method`, under `protocol` (with its
/// training subset).
MethodPredictions crossValidateMethod(const std::string& method,
                                      const std::vector<data::DevmapRow>& rows,
                                      const DevmapProtocol& protocol,
                                      const DevmapPredictor& predictor);

/// The predictor of a baseline or reference that learns nothing heavy ("static", "grewe",
/// "hand-tree" or "memory"). Throws EvaluationError for another name.
DevmapPredictor baselinePredictor(const std::string& method,
                                  const std::vector<data::DevmapRow>& rows);

/// The cross-validated predictions of a baseline or reference that learns nothing heavy
/// ("static", "grewe", "hand-tree" or "memory") under `protocol`.
MethodPredictions devmapBaseline(const std::string& method,
                                 const std::vector<data::DevmapRow>& rows,
                                 const DevmapProtocol& protocol);

/// Creates the report folder (and its parents) before hours of training; throws EvaluationError
/// when it cannot be made or a file is in the way.
void prepareReportFolder(const std::string& folder);

}  // namespace deeptune::evaluation
