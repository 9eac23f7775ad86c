// The token profiles of a model's training programs and a kernel's distance to the nearest one.
#include "model/training_programs.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "model/model_error.hpp"

namespace deeptune::model {
namespace {

constexpr size_t kMaxPrograms = 100000;

/// The (id, count) pairs of `tokens` within the vocabulary, ids ascending.
TrainingPrograms::Counts countsOf(const std::vector<int>& tokens, size_t vocabularySize) {
  std::map<int, int> counts;
  for (int id : tokens) {
    if (id >= 0 && static_cast<size_t>(id) < vocabularySize) ++counts[id];
  }
  return {counts.begin(), counts.end()};
}

double weight(int count) { return std::log1p(static_cast<double>(count)); }

double normOf(const TrainingPrograms::Counts& counts) {
  double squares = 0;
  for (const auto& entry : counts) squares += weight(entry.second) * weight(entry.second);
  return std::sqrt(squares);
}

}  // namespace

TrainingPrograms TrainingPrograms::of(const std::vector<std::vector<int>>& sequences,
                                      size_t vocabularySize) {
  std::vector<Counts> programs;
  for (const std::vector<int>& tokens : sequences) {
    for (int id : tokens) {
      if (id < 0 || static_cast<size_t>(id) >= vocabularySize) {
        throw ModelError("training programs: token id " + std::to_string(id) +
                         " outside a vocabulary of " + std::to_string(vocabularySize));
      }
    }
    programs.push_back(countsOf(tokens, vocabularySize));
  }
  return fromCounts(std::move(programs), vocabularySize);
}

TrainingPrograms TrainingPrograms::fromCounts(std::vector<Counts> programs, size_t vocabularySize) {
  if (programs.size() > kMaxPrograms) {
    throw ModelError("training programs: " + std::to_string(programs.size()) +
                     " programs (at most " + std::to_string(kMaxPrograms) + ")");
  }
  TrainingPrograms result;
  result.vocabularySize_ = vocabularySize;
  for (size_t p = 0; p < programs.size(); ++p) {
    for (size_t i = 0; i < programs[p].size(); ++i) {
      const auto [id, count] = programs[p][i];
      if (id < 0 || static_cast<size_t>(id) >= vocabularySize || count <= 0 ||
          (i > 0 && programs[p][i - 1].first >= id)) {
        throw ModelError("training programs: program " + std::to_string(p + 1) + " has token " +
                         std::to_string(id) + " counted " + std::to_string(count) +
                         " (ids ascending within the vocabulary, counts positive)");
      }
    }
    result.norms_.push_back(normOf(programs[p]));
  }
  result.programs_ = std::move(programs);
  return result;
}

double TrainingPrograms::nearestDistance(const std::vector<int>& tokens) const {
  if (programs_.empty()) return -1;
  const Counts kernel = countsOf(tokens, vocabularySize_);
  const double kernelNorm = normOf(kernel);
  if (kernelNorm == 0) return 1;
  double best = 0;
  for (size_t p = 0; p < programs_.size(); ++p) {
    if (norms_[p] == 0) continue;
    double dot = 0;  // a merge of two ascending lists
    auto a = kernel.begin();
    auto b = programs_[p].begin();
    while (a != kernel.end() && b != programs_[p].end()) {
      if (a->first < b->first) {
        ++a;
      } else if (b->first < a->first) {
        ++b;
      } else {
        dot += weight(a->second) * weight(b->second);
        ++a;
        ++b;
      }
    }
    best = std::max(best, dot / (kernelNorm * norms_[p]));
  }
  return std::clamp(1 - best, 0.0, 1.0);
}

}  // namespace deeptune::model
