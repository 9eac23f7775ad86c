// Device-mapping examples from the paper's CSV rows: tokens, aux inputs, labels, fingerprint.
#pragma once

#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "model/deeptune_model.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::model {

/// The device-mapping task's metadata (labels CPU/GPU, aux inputs transfer and wgsize).
ModelInfo devmapModelInfo(const tokenizer::Vocabulary& vocabulary, int maxLength,
                          bool paperPadding);

/// The vocabulary derived from the rows' sources joined with "\n" (the paper's way).
tokenizer::Vocabulary devmapVocabulary(const std::vector<data::DevmapRow>& rows,
                                       const std::string& name);

/// Tokens of a normalized source for the model: encoded (unknown characters skipped) and
/// pre-truncated to the last maxLength ids.
std::vector<int> modelTokens(const tokenizer::Vocabulary& vocabulary, const std::string& source,
                             int maxLength);

/// One example per row (label = index of the oracle in {CPU, GPU}). Sources are encoded once.
std::vector<Example> devmapExamples(const std::vector<data::DevmapRow>& rows,
                                    const tokenizer::Vocabulary& vocabulary, int maxLength);

/// A stable hash of the rows' content (benchmark, dataset, oracle, aux inputs, source).
std::string devmapFingerprint(const std::vector<data::DevmapRow>& rows);

}  // namespace deeptune::model
