// How far a kernel is from what a model learned from: the token profiles of its training programs
// and a kernel's distance to the nearest one.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace deeptune::model {

/// The distinct programs a predictor was trained on, each as its token counts under the model's
/// vocabulary (kept in the model file, format 8). Immutable; safe to share between threads.
class TrainingPrograms {
 public:
  /// One program's counts: (token id, count) pairs, ids ascending, counts positive.
  using Counts = std::vector<std::pair<int, int>>;

  TrainingPrograms() = default;
  /// The programs of `sequences` (token id sequences, one per distinct program) under a
  /// vocabulary of `vocabularySize` ids. Throws ModelError for an id outside it.
  static TrainingPrograms of(const std::vector<std::vector<int>>& sequences, size_t vocabularySize);
  /// Programs as a file holds them; throws ModelError (starting with "training programs: ") for
  /// more than 100000 programs, an id outside the vocabulary, ids not ascending or a count that
  /// is not positive.
  static TrainingPrograms fromCounts(std::vector<Counts> programs, size_t vocabularySize);

  const std::vector<Counts>& counts() const { return programs_; }
  bool empty() const { return programs_.empty(); }

  /// 1 − the largest cosine similarity between the kernel's token profile and a program's, each
  /// token weighted log(1 + count) (frequent punctuation does not drown the rest): 0 for the token
  /// mix of a training program, 1 for a kernel with no token in common with any; -1 when there
  /// are no programs. Ids outside the vocabulary are ignored.
  double nearestDistance(const std::vector<int>& tokens) const;

 private:
  std::vector<Counts> programs_;
  std::vector<double> norms_;  ///< of each program's weighted profile
  size_t vocabularySize_ = 0;
};

}  // namespace deeptune::model
