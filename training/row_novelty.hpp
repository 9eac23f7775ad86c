// How far each evaluated row's kernel is from the programs its fold trains on, measured as the
// shipped predictor measures it for a user's kernel.
#pragma once

#include <vector>

#include "data/datasets.hpp"
#include "evaluation/novelty_scores.hpp"

namespace deeptune::training {

/// Per fold of `foldOfRow`: the vocabulary derived from its training sources (as source-boosted
/// derives it), their token profiles (model::TrainingPrograms), and each test row's distance to
/// the nearest and share of characters outside that vocabulary. Folds run on `workers` threads.
evaluation::RowNovelty rowNovelty(const std::vector<data::DevmapRow>& rows,
                                  const std::vector<int>& foldOfRow, int workers);

}  // namespace deeptune::training
