// Boosted trees over what a kernel's source and launch give (model/source_features.hpp): fitted
// for a model file and as a cross-validation method by the same function.
#pragma once

#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "data/devmap_method.hpp"
#include "model/boosted_trees.hpp"
#include "model/deeptune_model.hpp"
#include "model/source_features.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::training {

/// The source-boosted predictor's settings. The defaults are what `train` ships for device
/// mapping, chosen on validation carved from training folds (docs/results.md, "What ships"):
/// the static counts estimated from the source and the launch inputs, 50 rounds of depth 6 at
/// eta 0.3, each tree on a random half of the columns (seed 0), one model; its probability
/// calibrated by temperature (docs/results.md, "Probabilities that mean what they say").
struct SourceBoostedOptions {
  /// The feature sets ("views"), each read by `models` boosted-tree models; all are averaged.
  std::vector<model::SourceFeatureSet> views{model::SourceFeatureSet{false, true, false}};
  model::BoostedTreeOptions trees{50, 6, 0.3, 0.5, 0};
  int models = 1;  ///< boosted-tree models averaged, with seeds trees.seed, + 1, ...
  /// How the probability is calibrated (model::calibrationMethods()): fitted to the held-out
  /// probabilities of kInnerFolds inner folds of the training rows grouped by source (dealt with
  /// seed trees.seed), each predicted by the same predictor fitted on the others.
  std::string calibration = "temperature";
};

/// The token-boosted reference's settings: the token counts alone, XGBoost's defaults (50
/// rounds, depth 6, eta 0.3, every column), no calibration.
SourceBoostedOptions tokenBoostedOptions();

/// A source-boosted model reads the whole token sequence: its files' maximum length.
constexpr int kSourceBoostedMaxLength = 1 << 20;

/// What a source-boosted model file holds.
struct SourceBoostedModel {
  model::ModelInfo info;  ///< a devmap model of the vocabulary, method and features
  std::vector<model::BoostedTreeHead> forest;
};

/// Fits the predictor on the `train` rows of `rows`: their oracle labels, and what prediction
/// reads of each (tokenizer::kernelInputs of the source under `vocabulary`, the launch inputs);
/// with options.calibration, its calibration on inner folds of the same rows; and the token
/// profiles of its distinct training programs (ModelInfo::trainingPrograms). Throws
/// TrainingError for no training row (or fewer than two sources to calibrate on), the model
/// module's ModelError from XGBoost.
SourceBoostedModel fitSourceBoosted(const std::vector<data::DevmapRow>& rows,
                                    const std::vector<size_t>& train,
                                    const tokenizer::Vocabulary& vocabulary,
                                    const SourceBoostedOptions& options);

/// The cross-validation method: per fold, the vocabulary of the training sources,
/// fitSourceBoosted, and each test row predicted by the model it made (model::InferenceModel),
/// as `deeptune predict` would, with its (calibrated) GPU probability.
data::DevmapPredictor sourceBoostedPredictor(const std::vector<data::DevmapRow>& rows,
                                             const SourceBoostedOptions& options);

/// The options of a command line: `features` as model::parseSourceFeatureSet reads them, and
/// `trees` comma-separated key=value pairs: rounds, depth, eta, colsample, models, seed (e.g.
/// "rounds=100,depth=4"; keys not named keep their default), `calibration` a
/// model::calibrationMethods() name. Throws TrainingError naming `command`'s option
/// (--source-features, --boosted-trees, --calibration) and the bad part.
SourceBoostedOptions sourceBoostedOptions(const std::string& features, const std::string& trees,
                                          const std::string& calibration,
                                          const std::string& command);

/// The settings as withTreeSettings reads them, every key named ("rounds=50,depth=6,..."), and
/// ", calibration C" unless it is none.
std::string treeSettingsText(const SourceBoostedOptions& options);

}  // namespace deeptune::training
