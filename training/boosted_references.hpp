// The references that learn with boosted trees: hand-boosted (the hand features) and
// token-boosted (each source's token counts), as device-mapping methods.
#pragma once

#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "data/devmap_method.hpp"

namespace deeptune::training {

/// XGBoost (model::BoostedTreeOptions' defaults) on baselines::handFeatures of each row, fitted on
/// the training rows' oracle labels.
data::DevmapPredictor handBoostedPredictor(const std::vector<data::DevmapRow>& rows);

/// XGBoost on each source's count of every token of the fold's training vocabulary (tokens
/// unknown to it skipped, as the tokenizer's prediction mode does) and log2 transfer, wgsize:
/// sourceBoostedPredictor with tokenBoostedOptions(), what `train --method token-boosted` writes.
/// No hand-made feature: what a bag of tokens learns from the source alone.
data::DevmapPredictor tokenBoostedPredictor(const std::vector<data::DevmapRow>& rows);

/// The predictor of a device-mapping method that learns without LibTorch: a baseline of
/// evaluation/ (static, grewe, hand-tree, memory) or a boosted reference (hand-boosted,
/// token-boosted). Throws evaluation::EvaluationError for another name.
data::DevmapPredictor referencePredictor(const std::string& method,
                                         const std::vector<data::DevmapRow>& rows);

}  // namespace deeptune::training
