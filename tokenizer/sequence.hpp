// Model input sequences: pre-truncation to the last N ids and the paper's pre-padding.
#pragma once

#include <cstddef>
#include <vector>

namespace deeptune::tokenizer {

/// The paper's sequence length N.
constexpr std::size_t kDefaultSequenceLength = 1024;

/// Keeps the last `maxLength` ids (all of them if there are no more).
std::vector<int> preTruncate(const std::vector<int>& ids,
                             std::size_t maxLength = kDefaultSequenceLength);

/// The paper's Keras input (`--paper-padding`): pre-truncates to `length`, then pads at the front
/// with `padValue` (the paper used the vocabulary size) to exactly `length` ids.
std::vector<int> prePad(const std::vector<int>& ids, int padValue,
                        std::size_t length = kDefaultSequenceLength);

}  // namespace deeptune::tokenizer
