// Thread-coarsening examples from runtime CSV rows: one kernel per example, the best factor as
// label.
#pragma once

#include <string>
#include <vector>

#include "data/coarsening_kernels.hpp"
#include "data/datasets.hpp"
#include "model/deeptune_model.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::model {

/// The coarsening task's metadata (no aux inputs, labels "1" .. "32").
ModelInfo coarseningModelInfo(const tokenizer::Vocabulary& vocabulary, int maxLength);

/// One example per kernel: its source's tokens, label = index of its best factor, gains = each
/// factor's speedup (for the regret loss).
std::vector<Example> coarseningExamples(const std::vector<data::CoarseningKernel>& kernels,
                                        const tokenizer::Vocabulary& vocabulary, int maxLength);

/// The vocabulary derived from the kernels' sources joined with "\n".
tokenizer::Vocabulary coarseningVocabulary(const std::vector<data::CoarseningKernel>& kernels,
                                           const std::string& name);

/// A stable hash of the kernels (names, sources, runtimes) for provenance.
std::string coarseningFingerprint(const std::vector<data::CoarseningKernel>& kernels);

}  // namespace deeptune::model
