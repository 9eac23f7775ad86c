// What `evaluate` runs, checked before any training: the methods of each task, the baselines'
// predictions under a protocol and the report folder.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "evaluation/cross_validation.hpp"
#include "evaluation/devmap_metrics.hpp"
#include "evaluation/protocol.hpp"

namespace deeptune::evaluation {

/// The device-mapping methods evaluate knows, and the coarsening ones.
const std::vector<std::string>& devmapMethods();
const std::vector<std::string>& coarseningMethods();

/// The methods of a comma-separated `list`, each one of `known`. Throws EvaluationError naming an
/// unknown one (and `task`), or when the list names none.
std::vector<std::string> selectMethods(const std::string& list,
                                       const std::vector<std::string>& known,
                                       const std::string& task);

/// The cross-validated predictions of `predictor`, named `method`, under `protocol` (with its
/// training subset).
MethodPredictions crossValidateMethod(const std::string& method,
                                      const std::vector<data::DevmapRow>& rows,
                                      const Protocol& protocol, const DevmapPredictor& predictor);

/// The predictor of a baseline or reference that learns nothing heavy ("static", "grewe",
/// "hand-tree" or "memory"). Throws EvaluationError for another name.
DevmapPredictor baselinePredictor(const std::string& method,
                                  const std::vector<data::DevmapRow>& rows);

/// Creates the report folder (and its parents) before hours of training; throws EvaluationError
/// when it cannot be made or a file is in the way.
void prepareReportFolder(const std::string& folder);

}  // namespace deeptune::evaluation
