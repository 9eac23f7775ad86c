// Each method's accuracy on the most novel quarter of the rows against the rest.
#include "evaluation/novelty_scores.hpp"

#include <algorithm>

#include "data/csv_reader.hpp"
#include "evaluation/evaluation_error.hpp"
#include "evaluation/report_plots.hpp"

namespace deeptune::evaluation {

std::vector<NoveltySplit> noveltySplits(const std::vector<data::DevmapRow>& rows,
                                        const std::vector<MethodPredictions>& methods,
                                        const RowNovelty& novelty) {
  const std::vector<double>& distance = novelty.nearestDistance;
  if (distance.size() != rows.size() || rows.empty()) {
    throw EvaluationError("novelty: " + std::to_string(distance.size()) + " distances for " +
                          std::to_string(rows.size()) + " rows");
  }
  std::vector<double> sorted = distance;
  std::sort(sorted.begin(), sorted.end());
  const double threshold = sorted[(sorted.size() * 3) / 4];
  std::vector<NoveltySplit> splits;
  for (const MethodPredictions& method : methods) {
    if (method.devices.size() != rows.size() ||
        (!method.gpuProbability.empty() && method.gpuProbability.size() != rows.size())) {
      throw EvaluationError("novelty: " + method.name + "'s predictions do not match the rows");
    }
    NoveltySplit split{method.name, threshold};
    double novelRight = 0, otherRight = 0, novelSure = 0, otherSure = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      const bool novel = distance[i] >= threshold;
      const bool right = method.devices[i] == rows[i].oracle || rows[i].tie;
      double sure = 0;
      if (!method.gpuProbability.empty()) {
        const double gpu = method.gpuProbability[i];
        sure = method.devices[i] == "GPU" ? gpu : 1 - gpu;
      }
      (novel ? split.novelRows : split.otherRows) += 1;
      (novel ? novelRight : otherRight) += right ? 1 : 0;
      (novel ? novelSure : otherSure) += sure;
    }
    const auto share = [](double part, size_t whole) {
      return whole > 0 ? part / static_cast<double>(whole) : 0.0;
    };
    split.novelAccuracy = share(novelRight, split.novelRows);
    split.otherAccuracy = share(otherRight, split.otherRows);
    if (!method.gpuProbability.empty()) {
      split.novelConfidence = share(novelSure, split.novelRows);
      split.otherConfidence = share(otherSure, split.otherRows);
    }
    splits.push_back(split);
  }
  return splits;
}

std::string noveltyCsv(const std::vector<data::DevmapRow>& rows, const std::vector<int>& foldOfRow,
                       const RowNovelty& novelty) {
  std::string csv =
      data::csvRow({"index", "benchmark", "dataset", "fold", "nearest_distance", "unknown_share"});
  for (size_t i = 0; i < rows.size(); ++i) {
    csv += data::csvRow(
        {std::to_string(rows[i].index), rows[i].benchmark, rows[i].dataset,
         std::to_string(foldOfRow.at(i)), formatNumber("%.6f", novelty.nearestDistance.at(i)),
         i < novelty.unknownShare.size() ? formatNumber("%.6f", novelty.unknownShare[i])
                                         : std::string()});
  }
  return csv;
}

std::string noveltyMarkdown(const std::vector<NoveltySplit>& splits, const RowNovelty& novelty) {
  if (splits.empty()) return "";
  size_t withUnknown = 0;
  for (double share : novelty.unknownShare) withUnknown += share > 0 ? 1 : 0;
  std::string md =
      "\n## How far from what it learned\n\nEach row's distance to the nearest program of its "
      "fold's training sources (1 − the cosine of their token profiles, log(1 + count) weights, "
      "under the fold's vocabulary; novelty.csv). The most novel quarter: distance ≥ " +
      formatNumber("%.3f", splits.front().threshold) + " (" +
      std::to_string(splits.front().novelRows) + " rows). " + std::to_string(withUnknown) +
      " rows have characters outside their fold's vocabulary.\n\n| method | accuracy, most novel "
      "quarter | accuracy, the rest | mean probability, most novel | mean probability, the rest "
      "|\n|---|---:|---:|---:|---:|\n";
  const auto percent = [](double v) { return formatNumber("%.1f%%", 100 * v); };
  const auto probability = [](double v) {
    return v < 0 ? std::string("–") : formatNumber("%.3f", v);
  };
  for (const NoveltySplit& split : splits) {
    md += "| " + split.method + " | " + percent(split.novelAccuracy) + " | " +
          percent(split.otherAccuracy) + " | " + probability(split.novelConfidence) + " | " +
          probability(split.otherConfidence) + " |\n";
  }
  return md;
}

}  // namespace deeptune::evaluation
