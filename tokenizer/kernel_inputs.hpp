// What every predictor reads of one normalized kernel: its token ids and its static counts.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/vocabulary.hpp"

namespace deeptune::tokenizer {

/// One kernel's inputs, computed the same way for training and for prediction.
struct KernelInputs {
  std::vector<int> tokens;          ///< the encoding's last maxLength ids
  size_t skipped = 0;               ///< characters the vocabulary does not know, left out
  std::vector<float> staticCounts;  ///< staticCountValues(staticCounts(source)), if asked for
};

/// `normalizedSource` encoded by `vocabulary` (unknown characters skipped; errors name `name`),
/// pre-truncated to `maxLength` ids, and, with `withStaticCounts` (a predictor that reads them),
/// its static counts. Throws VocabError for text that is not text.
KernelInputs kernelInputs(const Vocabulary& vocabulary, std::string_view normalizedSource,
                          size_t maxLength, const std::string& name, bool withStaticCounts);

}  // namespace deeptune::tokenizer
