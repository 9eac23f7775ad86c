// Boosted trees through XGBoost's C API: matrices, booster settings, rounds, prediction.
#include "evaluation/boosted_trees.hpp"

#include <xgboost/c_api.h>

#include <cmath>
#include <memory>
#include <string>

#include "evaluation/evaluation_error.hpp"

namespace deeptune::evaluation {
namespace {

void check(int status, const char* what) {
  if (status != 0) {
    throw EvaluationError(std::string("boosted trees: ") + what + ": " + XGBGetLastError());
  }
}

struct MatrixFree {
  void operator()(void* handle) const { XGDMatrixFree(handle); }
};
struct BoosterFree {
  void operator()(void* handle) const { XGBoosterFree(handle); }
};
using Matrix = std::unique_ptr<void, MatrixFree>;
using Booster = std::unique_ptr<void, BoosterFree>;

/// Rows of `width` floats as one dense XGBoost matrix (no value counts as missing).
Matrix denseMatrix(const std::vector<std::vector<float>>& rows, size_t width) {
  std::vector<float> flat;
  flat.reserve(rows.size() * width);
  for (const auto& row : rows) {
    if (row.size() != width) throw EvaluationError("boosted trees: rows of different widths");
    flat.insert(flat.end(), row.begin(), row.end());
  }
  DMatrixHandle handle = nullptr;
  check(XGDMatrixCreateFromMat(flat.data(), rows.size(), width, std::nanf(""), &handle), "matrix");
  return Matrix(handle);
}

}  // namespace

std::vector<double> boostedTreeProbabilities(const std::vector<std::vector<float>>& train,
                                             const std::vector<int>& labels,
                                             const std::vector<std::vector<float>>& test,
                                             const BoostedTreeOptions& options) {
  if (train.empty() || train.size() != labels.size()) {
    throw EvaluationError("boosted trees: " + std::to_string(train.size()) + " rows and " +
                          std::to_string(labels.size()) + " labels");
  }
  if (options.rounds < 1 || options.maxDepth < 1 || !(options.learningRate > 0)) {
    throw EvaluationError("boosted trees: rounds, depth and learning rate must be positive");
  }
  const size_t width = train.front().size();
  const Matrix trainMatrix = denseMatrix(train, width);
  std::vector<float> targets(labels.begin(), labels.end());
  check(XGDMatrixSetFloatInfo(trainMatrix.get(), "label", targets.data(), targets.size()),
        "labels");
  DMatrixHandle matrices[] = {trainMatrix.get()};
  BoosterHandle handle = nullptr;
  check(XGBoosterCreate(matrices, 1, &handle), "booster");
  const Booster booster(handle);
  const std::pair<std::string, std::string> settings[] = {
      {"objective", "binary:logistic"},
      {"nthread", "1"},
      {"max_depth", std::to_string(options.maxDepth)},
      {"eta", std::to_string(options.learningRate)},
      {"seed", std::to_string(options.seed)},
      {"verbosity", "0"}};
  for (const auto& [name, value] : settings) {
    check(XGBoosterSetParam(booster.get(), name.c_str(), value.c_str()), name.c_str());
  }
  for (int round = 0; round < options.rounds; ++round) {
    check(XGBoosterUpdateOneIter(booster.get(), round, trainMatrix.get()), "training");
  }
  if (test.empty()) return {};
  const Matrix testMatrix = denseMatrix(test, width);
  bst_ulong count = 0;
  const float* result = nullptr;
  check(XGBoosterPredict(booster.get(), testMatrix.get(), 0, 0, 0, &count, &result), "prediction");
  if (count != test.size()) throw EvaluationError("boosted trees: prediction count mismatch");
  return std::vector<double>(result, result + count);
}

}  // namespace deeptune::evaluation
