// The hand-feature tree and the memory baseline: reference rows for the device-mapping tables.
#include "baselines/reference_methods.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <unordered_map>

#include "baselines/baseline_error.hpp"
#include "baselines/grewe_tree.hpp"
#include "baselines/static_mapping.hpp"

namespace deeptune::baselines {

std::array<double, 8> handFeatures(const data::DevmapRow& row) {
  return {static_cast<double>(row.comp),
          static_cast<double>(row.rational),
          static_cast<double>(row.mem),
          static_cast<double>(row.localmem),
          static_cast<double>(row.coalesced),
          static_cast<double>(row.atomic),
          std::log2(std::max(1.0, row.transfer)),
          std::log2(std::max(1.0, static_cast<double>(row.wgsize)))};
}

data::DevmapPredictor handFeatureTreePredictor(const std::vector<data::DevmapRow>& rows) {
  std::vector<std::vector<double>> features;
  for (const data::DevmapRow& row : rows) {
    const std::array<double, 8> f = handFeatures(row);
    features.emplace_back(f.begin(), f.end());
  }
  return treePredictor(rows, std::move(features));
}

data::DevmapPredictor memoryPredictor(const std::vector<data::DevmapRow>& rows) {
  auto shared = std::make_shared<const std::vector<data::DevmapRow>>(rows);
  return [shared](const std::vector<size_t>& trainRows, const std::vector<size_t>& testRows, int) {
    const std::vector<data::DevmapRow>& all = *shared;
    std::unordered_map<std::string, std::vector<size_t>> seen;  // source -> training rows
    for (size_t row : trainRows) {
      if (row >= all.size()) throw BaselineError("memory: training row out of range");
      seen[all[row].src].push_back(row);
    }
    const std::string fallback = majorityDevice(all, trainRows);
    std::vector<std::string> predicted;
    for (size_t row : testRows) {
      if (row >= all.size()) throw BaselineError("memory: test row out of range");
      const auto found = seen.find(all[row].src);
      if (found == seen.end()) {
        predicted.push_back(fallback);
        continue;
      }
      const double size = std::log2(std::max(1.0, all[row].transfer));
      double nearest = std::numeric_limits<double>::infinity();
      std::string label;
      for (size_t candidate : found->second) {
        const double distance = std::abs(std::log2(std::max(1.0, all[candidate].transfer)) - size);
        if (distance < nearest) {
          nearest = distance;
          label = all[candidate].oracle;
        }
      }
      predicted.push_back(label);
    }
    return predicted;
  };
}

}  // namespace deeptune::baselines
