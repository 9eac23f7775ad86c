// Boosted trees through XGBoost's C API: matrices, booster settings, rounds, prediction.
#include "model/boosted_trees.hpp"

#include <xgboost/c_api.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>
#include <string>

#include "model/model_error.hpp"

namespace deeptune::model {
namespace {

void check(int status, const char* what) {
  if (status != 0) {
    throw ModelError(std::string("boosted trees: ") + what + ": " + XGBGetLastError());
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
    if (row.size() != width) throw ModelError("boosted trees: rows of different widths");
    flat.insert(flat.end(), row.begin(), row.end());
  }
  DMatrixHandle handle = nullptr;
  check(XGDMatrixCreateFromMat(flat.data(), rows.size(), width, std::nanf(""), &handle), "matrix");
  return Matrix(handle);
}

/// Fits the booster (binary logistic objective, one thread) on `train` and `labels`.
Booster fitBooster(const std::vector<std::vector<float>>& train, const std::vector<int>& labels,
                   const BoostedTreeOptions& options) {
  if (train.empty() || train.size() != labels.size()) {
    throw ModelError("boosted trees: " + std::to_string(train.size()) + " rows and " +
                     std::to_string(labels.size()) + " labels");
  }
  if (options.rounds < 1 || options.maxDepth < 1 || !(options.learningRate > 0) ||
      !(options.columnSample > 0 && options.columnSample <= 1)) {
    throw ModelError(
        "boosted trees: rounds, depth and learning rate must be positive, the "
        "column sample in (0, 1]");
  }
  const size_t width = train.front().size();
  const Matrix trainMatrix = denseMatrix(train, width);
  std::vector<float> targets(labels.begin(), labels.end());
  check(XGDMatrixSetFloatInfo(trainMatrix.get(), "label", targets.data(), targets.size()),
        "labels");
  DMatrixHandle matrices[] = {trainMatrix.get()};
  BoosterHandle handle = nullptr;
  check(XGBoosterCreate(matrices, 1, &handle), "booster");
  Booster booster(handle);
  const std::pair<std::string, std::string> settings[] = {
      {"objective", "binary:logistic"},
      {"nthread", "1"},
      {"max_depth", std::to_string(options.maxDepth)},
      {"eta", std::to_string(options.learningRate)},
      {"colsample_bytree", std::to_string(options.columnSample)},
      {"seed", std::to_string(options.seed)},
      {"verbosity", "0"}};
  for (const auto& [name, value] : settings) {
    check(XGBoosterSetParam(booster.get(), name.c_str(), value.c_str()), name.c_str());
  }
  for (int round = 0; round < options.rounds; ++round) {
    check(XGBoosterUpdateOneIter(booster.get(), round, trainMatrix.get()), "training");
  }
  return booster;
}

}  // namespace

std::vector<double> boostedTreeProbabilities(const std::vector<std::vector<float>>& train,
                                             const std::vector<int>& labels,
                                             const std::vector<std::vector<float>>& test,
                                             const BoostedTreeOptions& options) {
  const Booster booster = fitBooster(train, labels, options);
  const size_t width = train.front().size();
  if (test.empty()) return {};
  const Matrix testMatrix = denseMatrix(test, width);
  bst_ulong count = 0;
  const float* result = nullptr;
  check(XGBoosterPredict(booster.get(), testMatrix.get(), 0, 0, 0, &count, &result), "prediction");
  if (count != test.size()) throw ModelError("boosted trees: prediction count mismatch");
  return std::vector<double>(result, result + count);
}

BoostedTreeHead fitBoostedTreeHead(const std::vector<std::vector<float>>& train,
                                   const std::vector<int>& labels,
                                   const BoostedTreeOptions& options) {
  const Booster booster = fitBooster(train, labels, options);
  bst_ulong length = 0;
  const char* buffer = nullptr;
  check(XGBoosterSaveModelToBuffer(booster.get(), R"({"format": "json"})", &length, &buffer),
        "export");
  const nlohmann::json saved = nlohmann::json::parse(buffer, buffer + length, nullptr, false);
  BoostedTreeHead head;
  head.features = static_cast<int>(train.front().size());
  try {
    const nlohmann::json& learner = saved.at("learner");
    // binary:logistic keeps its base score as a probability; the trees add to its logit.
    const double base =
        std::stod(learner.at("learner_model_param").at("base_score").get<std::string>());
    if (!(base > 0.0 && base < 1.0)) throw ModelError("boosted trees: base score outside (0, 1)");
    head.baseMargin = std::log(base / (1.0 - base));
    for (const nlohmann::json& tree : learner.at("gradient_booster").at("model").at("trees")) {
      const auto left = tree.at("left_children").get<std::vector<int32_t>>();
      const auto right = tree.at("right_children").get<std::vector<int32_t>>();
      const auto feature = tree.at("split_indices").get<std::vector<int32_t>>();
      const auto value = tree.at("split_conditions").get<std::vector<float>>();
      const auto defaultLeft = tree.at("default_left").get<std::vector<int>>();
      std::vector<TreeNode> nodes(left.size());
      for (size_t n = 0; n < nodes.size(); ++n) {
        const bool leaf = left.at(n) == -1;
        nodes[n] = {leaf ? -1 : feature.at(n), value.at(n), left[n], right.at(n),
                    defaultLeft.at(n) != 0};
      }
      head.trees.push_back(std::move(nodes));
    }
  } catch (const nlohmann::json::exception& e) {
    throw ModelError(std::string("boosted trees: unexpected saved model: ") + e.what());
  } catch (const std::logic_error& e) {  // std::stod
    throw ModelError(std::string("boosted trees: unexpected base score: ") + e.what());
  }
  try {
    checkBoostedTreeHead(head);
  } catch (const ModelError& e) {
    throw ModelError(std::string("boosted trees: exported trees refused: ") + e.what());
  }
  return head;
}

}  // namespace deeptune::model
