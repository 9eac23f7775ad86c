// The rows boosted-tree predictors read of a kernel, from its tokens, static counts and launch.
#include "model/source_features.hpp"

#include <algorithm>
#include <cmath>

#include "data/text_split.hpp"
#include "model/boosted_tree_head.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {

SourceFeatureSet parseSourceFeatureSet(const std::string& list) {
  SourceFeatureSet set{false, false, false};
  for (const std::string& part : data::splitText(list, ',')) {
    if (part == "tokens") {
      set.tokenCounts = true;
    } else if (part == "counts") {
      set.staticCounts = true;
    } else if (part == "ratios") {
      set.ratios = true;
    } else {
      throw ModelError("unknown source feature '" + part + "' (tokens, counts, ratios)");
    }
  }
  if (!set.tokenCounts && !set.staticCounts && !set.ratios) {
    throw ModelError("no source feature named (tokens, counts, ratios)");
  }
  return set;
}

std::string sourceFeatureSetName(const SourceFeatureSet& set) {
  std::string name;
  const auto add = [&name](bool on, const char* part) {
    if (on) name += (name.empty() ? "" : ",") + std::string(part);
  };
  add(set.tokenCounts, "tokens");
  add(set.staticCounts, "counts");
  add(set.ratios, "ratios");
  return name;
}

std::vector<SourceFeatureSet> parseSourceFeatureViews(const std::string& views) {
  std::vector<SourceFeatureSet> sets;
  for (const std::string& view : data::splitText(views, '+')) {
    sets.push_back(parseSourceFeatureSet(view));
  }
  if (sets.empty() || sets.size() > 8) {
    throw ModelError("1 to 8 feature sets joined by '+' expected, not '" + views + "'");
  }
  return sets;
}

std::string sourceFeatureViewsName(const std::vector<SourceFeatureSet>& views) {
  std::string name;
  for (const SourceFeatureSet& view : views) {
    name += (name.empty() ? "" : "+") + sourceFeatureSetName(view);
  }
  return name;
}

size_t sourceFeatureWidth(const SourceFeatureSet& set, size_t vocabularySize, size_t auxInputs) {
  return (set.tokenCounts ? vocabularySize : 0) + (set.staticCounts ? kStaticCountValues : 0) +
         (set.ratios ? kRatioValues : 0) + auxInputs;
}

std::vector<float> sourceFeatureRow(const SourceFeatureSet& set, const std::vector<int>& tokens,
                                    size_t vocabularySize, const std::vector<float>& staticCounts,
                                    const std::vector<double>& rawAux) {
  if ((set.staticCounts || set.ratios) && staticCounts.size() != kStaticCountValues) {
    throw ModelError(
        "the model reads a kernel's static counts: " + std::to_string(kStaticCountValues) +
        " values expected, " + std::to_string(staticCounts.size()) + " given");
  }
  std::vector<float> row;
  if (set.tokenCounts) row = tokenCounts(tokens, vocabularySize);
  if (set.staticCounts) row.insert(row.end(), staticCounts.begin(), staticCounts.end());
  if (set.ratios) {
    const double comp = staticCounts[0], mem = staticCounts[2], localmem = staticCounts[3],
                 coalesced = staticCounts[4];
    const double transfer = rawAux.size() == 2 ? std::max(1.0, rawAux[0]) : 1.0;
    const double wgsize = rawAux.size() == 2 ? std::max(1.0, rawAux[1]) : 1.0;
    const double perMem = 1.0 / std::max(1.0, mem);
    row.push_back(static_cast<float>(std::log2(transfer) - std::log2(1.0 + comp + mem)));
    row.push_back(static_cast<float>(coalesced * perMem));
    row.push_back(static_cast<float>(localmem * perMem * wgsize));
    row.push_back(static_cast<float>(comp * perMem));
  }
  for (double value : rawAux) row.push_back(static_cast<float>(std::log2(std::max(1.0, value))));
  return row;
}

}  // namespace deeptune::model
