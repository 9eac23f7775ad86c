// The source-boosted predictor: fitted on rows, saved as a model file or predicting a fold.
#include "training/source_boosted.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string_view>

#include "data/text_split.hpp"
#include "model/devmap_data.hpp"
#include "model/inference_model.hpp"
#include "model/model_error.hpp"
#include "tokenizer/kernel_inputs.hpp"
#include "training/training_error.hpp"
#include "training/validation_scores.hpp"

namespace deeptune::training {
namespace {

/// The example prediction gets for `row` (its label too), each distinct source read once.
class RowExamples {
 public:
  RowExamples(const std::vector<data::DevmapRow>& rows, const tokenizer::Vocabulary& vocabulary)
      : rows_(rows), vocabulary_(vocabulary) {}

  model::Example operator()(size_t i) {
    const data::DevmapRow& row = rows_.at(i);
    auto found = inputs_.find(row.src);
    if (found == inputs_.end()) {
      found = inputs_
                  .emplace(row.src, tokenizer::kernelInputs(vocabulary_, row.src,
                                                            kSourceBoostedMaxLength, row.benchmark,
                                                            /*withStaticCounts=*/true))
                  .first;
    }
    model::Example example;
    example.tokens = found->second.tokens;
    example.staticCounts = found->second.staticCounts;
    example.aux = {static_cast<float>(row.transfer), static_cast<float>(row.wgsize)};
    example.label = row.oracle == "GPU" ? 1 : 0;
    return example;
  }

 private:
  const std::vector<data::DevmapRow>& rows_;
  const tokenizer::Vocabulary& vocabulary_;
  std::map<std::string, tokenizer::KernelInputs> inputs_;
};

/// The feature row of `example` as model::InferenceModel computes it.
std::vector<float> featureRow(const model::SourceFeatureSet& features,
                              const model::Example& example, size_t vocabularySize) {
  return model::sourceFeatureRow(features, example.tokens, vocabularySize, example.staticCounts,
                                 std::vector<double>(example.aux.begin(), example.aux.end()));
}

/// The forest of `options` fitted on the `train` rows' examples (no calibration).
std::vector<model::BoostedTreeHead> fitForest(RowExamples& examples,
                                              const std::vector<size_t>& train,
                                              size_t vocabularySize,
                                              const SourceBoostedOptions& options) {
  std::vector<std::vector<std::vector<float>>> features(options.views.size());
  std::vector<int> labels;
  for (size_t i : train) {
    const model::Example example = examples(i);
    for (size_t v = 0; v < options.views.size(); ++v) {
      features[v].push_back(featureRow(options.views[v], example, vocabularySize));
    }
    labels.push_back(example.label);
  }
  std::vector<model::BoostedTreeHead> forest;
  for (int m = 0; m < options.models; ++m) {  // member m * views + v reads view v
    model::BoostedTreeOptions trees = options.trees;
    trees.seed += static_cast<uint64_t>(m);
    for (size_t v = 0; v < options.views.size(); ++v) {
      forest.push_back(model::fitBoostedTreeHead(features[v], labels, trees));
    }
  }
  return forest;
}

/// What `predictor` answers for each of `rows`, as predict decides (the device of the larger
/// probability), with the GPU's probability.
data::DevmapPredictions predictRows(const model::InferenceModel& predictor, RowExamples& examples,
                                    const std::vector<size_t>& rows) {
  data::DevmapPredictions predicted;
  for (size_t i : rows) {
    const std::vector<float> p = predictor.predict(examples(i));
    predicted.devices.push_back(p[1] > p[0] ? "GPU" : "CPU");
    predicted.gpuProbability.push_back(p[1]);
  }
  return predicted;
}

/// options.calibration fitted on inner folds of `train`: each inner fold's rows predicted by the
/// forest fitted on the others.
model::ProbabilityCalibration innerFoldCalibration(RowExamples& examples,
                                                   const std::vector<data::DevmapRow>& rows,
                                                   const std::vector<size_t>& train,
                                                   const model::ModelInfo& info,
                                                   const SourceBoostedOptions& options) {
  const std::vector<std::vector<size_t>> inner = innerFolds(rows, train, options.trees.seed);
  if (std::count_if(inner.begin(), inner.end(), [](const auto& f) { return !f.empty(); }) < 2) {
    throw TrainingError("source-boosted: --calibration needs training rows of two sources or more");
  }
  std::vector<double> heldOut;
  std::vector<int> labels;
  for (size_t k = 0; k < inner.size(); ++k) {
    if (inner[k].empty()) continue;
    const model::InferenceModel predictor = model::InferenceModel::ofPredictor(
        info, fitForest(examples, otherInnerFolds(inner, k), info.vocabulary.size(), options));
    const std::vector<double> gpu = predictRows(predictor, examples, inner[k]).gpuProbability;
    heldOut.insert(heldOut.end(), gpu.begin(), gpu.end());
    for (size_t i : inner[k]) labels.push_back(rows[i].oracle == "GPU" ? 1 : 0);
  }
  try {
    return model::fitCalibration(options.calibration, heldOut, labels);
  } catch (const model::ModelError& e) {
    throw TrainingError("source-boosted: " + std::string(e.what()));
  }
}

/// fitSourceBoosted with the caller's examples (each source tokenized once for every fit).
SourceBoostedModel fitWithExamples(RowExamples& examples, const std::vector<data::DevmapRow>& rows,
                                   const std::vector<size_t>& train,
                                   const tokenizer::Vocabulary& vocabulary,
                                   const SourceBoostedOptions& options) {
  if (train.empty()) throw TrainingError("source-boosted: no training row");
  if (options.models < 1 || options.models > 64) {
    throw TrainingError("source-boosted: 1 to 64 boosted-tree models");
  }
  if (options.views.empty() || options.views.size() * static_cast<size_t>(options.models) > 64) {
    throw TrainingError("source-boosted: 1 to 64 boosted-tree models over 1 to 8 feature sets");
  }
  SourceBoostedModel fitted;
  fitted.info = model::devmapModelInfo(vocabulary, kSourceBoostedMaxLength, false);
  fitted.info.method = "source-boosted";
  fitted.info.sourceFeatures = model::sourceFeatureViewsName(options.views);
  fitted.info.trainingRows = static_cast<int>(train.size());
  fitted.forest = fitForest(examples, train, vocabulary.size(), options);
  std::set<std::string_view> seen;  // each distinct training program once
  std::vector<std::vector<int>> programs;
  for (size_t i : train) {
    if (seen.insert(rows[i].src).second) programs.push_back(examples(i).tokens);
  }
  fitted.info.trainingPrograms = std::make_shared<const model::TrainingPrograms>(
      model::TrainingPrograms::of(programs, vocabulary.size()));
  if (options.calibration != "none") {
    fitted.info.calibration = innerFoldCalibration(examples, rows, train, fitted.info, options);
  }
  return fitted;
}

}  // namespace

SourceBoostedOptions tokenBoostedOptions() {
  SourceBoostedOptions options;
  options.views = {model::SourceFeatureSet{true, false, false}};
  options.trees = model::BoostedTreeOptions{};
  options.calibration = "none";  // the reference as it was measured: XGBoost's own probability
  return options;
}

SourceBoostedModel fitSourceBoosted(const std::vector<data::DevmapRow>& rows,
                                    const std::vector<size_t>& train,
                                    const tokenizer::Vocabulary& vocabulary,
                                    const SourceBoostedOptions& options) {
  RowExamples examples(rows, vocabulary);
  return fitWithExamples(examples, rows, train, vocabulary, options);
}

data::DevmapPredictor sourceBoostedPredictor(const std::vector<data::DevmapRow>& rows,
                                             const SourceBoostedOptions& options) {
  auto data = std::make_shared<const std::vector<data::DevmapRow>>(rows);
  return [data, options](const std::vector<size_t>& train, const std::vector<size_t>& test, int) {
    std::vector<std::string_view> sources;
    for (size_t i : train) sources.push_back(data->at(i).src);
    const tokenizer::Vocabulary vocabulary =
        tokenizer::Vocabulary::deriveFromTexts(sources, "the fold's training sources");
    RowExamples examples(*data, vocabulary);
    SourceBoostedModel fitted = fitWithExamples(examples, *data, train, vocabulary, options);
    const model::InferenceModel predictor =
        model::InferenceModel::ofPredictor(std::move(fitted.info), std::move(fitted.forest));
    return predictRows(predictor, examples, test);
  };
}

SourceBoostedOptions sourceBoostedOptions(const std::string& features, const std::string& text,
                                          const std::string& calibration,
                                          const std::string& command) {
  SourceBoostedOptions options;
  const auto& methods = model::calibrationMethods();
  if (std::find(methods.begin(), methods.end(), calibration) == methods.end()) {
    throw TrainingError(command + ": --calibration is none, platt, temperature or isotonic, not '" +
                        calibration + "'");
  }
  options.calibration = calibration;
  try {
    options.views = model::parseSourceFeatureViews(features);
  } catch (const model::ModelError& e) {
    throw TrainingError(command + ": --source-features: " + e.what());
  }
  for (const std::string& pair : data::splitText(text, ',', data::EmptyPieces::kDrop)) {
    const size_t equals = pair.find('=');
    const std::string key = pair.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : pair.substr(equals + 1);
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    // A number of the text alone, in range before any cast (NaN fails every comparison).
    const bool inRange = !value.empty() && *end == '\0' && number >= 0 && number <= 100000;
    const bool ok = inRange && number > 0;
    const bool whole = inRange && std::floor(number) == number;
    if (ok && whole && key == "rounds") {
      options.trees.rounds = static_cast<int>(number);
    } else if (ok && whole && key == "depth" && number <= 30) {
      options.trees.maxDepth = static_cast<int>(number);
    } else if (ok && key == "eta" && number <= 1) {
      options.trees.learningRate = number;
    } else if (ok && key == "colsample" && number <= 1) {
      options.trees.columnSample = number;
    } else if (ok && whole && key == "models" && number <= 64) {
      options.models = static_cast<int>(number);
    } else if (whole && key == "seed") {
      options.trees.seed = static_cast<uint64_t>(number);
    } else {
      throw TrainingError(command + ": --boosted-trees: '" + pair +
                          "' (rounds=1..100000, depth=1..30, eta=(0,1], colsample=(0,1], "
                          "models=1..64, seed=0..100000)");
    }
  }
  return options;
}

std::string treeSettingsText(const SourceBoostedOptions& options) {
  char text[160];
  std::snprintf(text, sizeof text, "rounds=%d,depth=%d,eta=%g,colsample=%g,models=%d,seed=%llu",
                options.trees.rounds, options.trees.maxDepth, options.trees.learningRate,
                options.trees.columnSample, options.models,
                static_cast<unsigned long long>(options.trees.seed));
  return std::string(text) +
         (options.calibration == "none" ? "" : ", calibration " + options.calibration);
}

}  // namespace deeptune::training
