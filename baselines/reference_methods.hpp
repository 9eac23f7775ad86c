// Two reference methods for device mapping, never a headline: what hand features alone and what
// memory of the training rows alone score.
#pragma once

#include <array>
#include <vector>

#include "data/datasets.hpp"
#include "data/devmap_method.hpp"

namespace deeptune::baselines {

/// The hand-feature tree's inputs of one row: the raw static counts comp, rational, mem,
/// localmem, coalesced, atomic, then log2(transfer) and log2(wgsize) (log2 of at least 1).
std::array<double, 8> handFeatures(const data::DevmapRow& row);

/// The hand-feature tree: a DecisionTree (entropy, depth 5, at least 5 rows a leaf, the Grewe
/// tree's options) on handFeatures(), fitted on each fold's training rows.
data::DevmapPredictor handFeatureTreePredictor(const std::vector<data::DevmapRow>& rows);

/// The memory baseline: a test row whose normalized source (`src`) is among the training rows'
/// gets the oracle of the training row of that source with the nearest data size (smallest
/// |log transfer difference|; ties: the first such training row); any other row gets the static
/// mapping's device. Thread-safe; copies what it needs.
data::DevmapPredictor memoryPredictor(const std::vector<data::DevmapRow>& rows);

}  // namespace deeptune::baselines
