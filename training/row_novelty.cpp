// Each evaluated row's distance to its fold's nearest training program.
#include "training/row_novelty.hpp"

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "data/parallel_for.hpp"
#include "model/training_programs.hpp"
#include "tokenizer/kernel_inputs.hpp"
#include "training/source_boosted.hpp"

namespace deeptune::training {

evaluation::RowNovelty rowNovelty(const std::vector<data::DevmapRow>& rows,
                                  const std::vector<int>& foldOfRow, int workers) {
  const std::set<int> distinct(foldOfRow.begin(), foldOfRow.end());
  const std::vector<int> folds(distinct.begin(), distinct.end());
  evaluation::RowNovelty novelty;
  novelty.nearestDistance.assign(rows.size(), 0);
  novelty.unknownShare.assign(rows.size(), 0);
  data::parallelFor(folds.size(), workers, [&](size_t k) {
    std::vector<std::string_view> sources;
    std::set<std::string_view> seen;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (foldOfRow[i] != folds[k] && seen.insert(rows[i].src).second) {
        sources.push_back(rows[i].src);
      }
    }
    const tokenizer::Vocabulary vocabulary =
        tokenizer::Vocabulary::deriveFromTexts(sources, "the fold's training sources");
    const auto inputsOf = [&](std::string_view source) {
      return tokenizer::kernelInputs(vocabulary, source, kSourceBoostedMaxLength,
                                     "an evaluated source", false);
    };
    std::vector<std::vector<int>> programs;
    for (std::string_view source : sources) programs.push_back(inputsOf(source).tokens);
    const model::TrainingPrograms profiles =
        model::TrainingPrograms::of(programs, vocabulary.size());
    std::map<std::string_view, std::pair<double, double>> ofSource;  // each test source once
    for (size_t i = 0; i < rows.size(); ++i) {
      if (foldOfRow[i] != folds[k]) continue;
      auto found = ofSource.find(rows[i].src);
      if (found == ofSource.end()) {
        const tokenizer::KernelInputs inputs = inputsOf(rows[i].src);
        const double unknown = rows[i].src.empty() ? 0
                                                   : static_cast<double>(inputs.skipped) /
                                                         static_cast<double>(rows[i].src.size());
        found = ofSource
                    .emplace(rows[i].src,
                             std::make_pair(profiles.nearestDistance(inputs.tokens), unknown))
                    .first;
      }
      novelty.nearestDistance[i] = found->second.first;
      novelty.unknownShare[i] = found->second.second;
    }
  });
  return novelty;
}

}  // namespace deeptune::training
