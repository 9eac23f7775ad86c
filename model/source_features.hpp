// What a boosted-tree predictor reads of a kernel: token counts, static counts estimated from its
// source, ratios of those counts, and the launch inputs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace deeptune::model {

/// The parts of a source-feature row, in this order (each optional but at least one; the launch
/// inputs always close the row).
struct SourceFeatureSet {
  bool tokenCounts = true;    ///< "tokens": each vocabulary token's count in the sequence
  bool staticCounts = false;  ///< "counts": tokenizer::staticCounts of the normalized source
  bool ratios = false;        ///< "ratios": Grewe et al.'s ratios of those counts (and the launch)
};

/// The set named by a comma-separated list of "tokens", "counts", "ratios" (e.g.
/// "tokens,counts"). Throws ModelError naming an unknown part, or when the list names none.
SourceFeatureSet parseSourceFeatureSet(const std::string& list);
/// The list parseSourceFeatureSet reads back ("tokens,counts,ratios" order).
std::string sourceFeatureSetName(const SourceFeatureSet& set);

/// Several feature sets joined by '+' (e.g. "counts+tokens"): the views of a source-boosted
/// predictor, each read by its own boosted-tree models. Throws ModelError as
/// parseSourceFeatureSet does, or for more than 8 views.
std::vector<SourceFeatureSet> parseSourceFeatureViews(const std::string& views);
/// The text parseSourceFeatureViews reads back.
std::string sourceFeatureViewsName(const std::vector<SourceFeatureSet>& views);

/// How many static counts a row's `counts` part holds (comp, rational, mem, localmem, coalesced,
/// atomic: tokenizer::StaticCounts' order) and how many ratios the `ratios` part.
constexpr size_t kStaticCountValues = 6;
constexpr size_t kRatioValues = 4;

/// The width of a row of `set` for a vocabulary of `vocabularySize` tokens and `auxInputs`
/// launch inputs.
size_t sourceFeatureWidth(const SourceFeatureSet& set, size_t vocabularySize, size_t auxInputs);

/// One example's row: the token counts of `tokens` (ids outside the vocabulary not counted), the
/// kStaticCountValues `staticCounts`, the ratios (log2 of transfer over comp + mem, coalesced
/// over mem, localmem over mem times wgsize, comp over mem; transfer and wgsize taken as 1 for a
/// task without launch inputs), then log2(max(1, x)) of each raw launch input. Throws ModelError
/// when the set reads static counts and `staticCounts` does not hold kStaticCountValues values.
std::vector<float> sourceFeatureRow(const SourceFeatureSet& set, const std::vector<int>& tokens,
                                    size_t vocabularySize, const std::vector<float>& staticCounts,
                                    const std::vector<double>& rawAux);

}  // namespace deeptune::model
