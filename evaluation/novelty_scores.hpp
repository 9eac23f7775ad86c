// Is a method worse on the programs least like its training data? Each method's accuracy on the
// most novel quarter of the rows against the rest.
#pragma once

#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "evaluation/devmap_metrics.hpp"

namespace deeptune::evaluation {

/// How far each row's kernel is from what its fold trained on (empty vectors: not measured).
struct RowNovelty {
  std::vector<double> nearestDistance;  ///< to the nearest training program, 0 to 1
  std::vector<double> unknownShare;     ///< characters outside the fold's vocabulary, 0 to 1
};

/// One method on the most novel quarter of the rows (by nearestDistance: the rows whose
/// distance is at least the 75th percentile's) and on the rest.
struct NoveltySplit {
  std::string method;
  double threshold = 0;  ///< the distance from which a row is in the novel quarter
  size_t novelRows = 0, otherRows = 0;
  double novelAccuracy = 0, otherAccuracy = 0;  ///< in [0, 1]
  /// The mean probability the method gave its answers there, or -1 without probabilities.
  double novelConfidence = -1, otherConfidence = -1;
};

/// Every method's split. Throws EvaluationError when `novelty` does not hold one distance per
/// row or a method's sizes do not match the rows.
std::vector<NoveltySplit> noveltySplits(const std::vector<data::DevmapRow>& rows,
                                        const std::vector<MethodPredictions>& methods,
                                        const RowNovelty& novelty);

/// novelty.csv: index,benchmark,dataset,fold,nearest_distance,unknown_share per row.
std::string noveltyCsv(const std::vector<data::DevmapRow>& rows, const std::vector<int>& foldOfRow,
                       const RowNovelty& novelty);

/// summary.md's section on the splits ("" without novelty).
std::string noveltyMarkdown(const std::vector<NoveltySplit>& splits, const RowNovelty& novelty);

}  // namespace deeptune::evaluation
