// What a coarsening evaluation keeps while it runs: every trained prediction so far, in a CSV of
// the report folder, so that a rerun with the same data and settings resumes; and the check of
// the runtimes against an oracles file.
#pragma once

#include <string>
#include <vector>

#include "data/coarsening_kernels.hpp"
#include "evaluation/coarsening_prediction.hpp"

namespace deeptune::evaluation {

/// The predictions of an evaluation written to `path` (replaced atomically after each), tagged
/// with `settings` (a digest of the data and settings they depend on). An existing log's rows
/// with the same tag are resumed; rows of other settings, or a file of another shape, are not.
class CoarseningTrainingLog {
 public:
  CoarseningTrainingLog(std::string path, std::string settings);
  /// The predictions resumed from an earlier run, then those add()ed.
  const std::vector<CoarseningPrediction>& predictions() const { return predictions_; }
  /// How many were resumed.
  size_t kept() const { return kept_; }
  /// Records one more (throws data::OutputError when the log cannot be written).
  void add(const CoarseningPrediction& prediction);
  /// Removes the log (once the report holds every prediction).
  void remove();

 private:
  std::string path_, settings_, content_;
  std::vector<CoarseningPrediction> predictions_;
  size_t kept_ = 0;
};

/// Refuses runtimes whose best factor on a device disagrees with the oracles file `path` (a
/// mismatched pair of files): EvaluationError naming the kernel and both factors.
void checkCoarseningOracles(
    const std::string& path, const std::vector<std::string>& devices,
    const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice);

}  // namespace deeptune::evaluation
