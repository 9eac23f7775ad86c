// Model input sequences: pre-truncation to the last N ids and the paper's pre-padding.
#include "tokenizer/sequence.hpp"

namespace deeptune::tokenizer {

std::vector<int> preTruncate(const std::vector<int>& ids, std::size_t maxLength) {
  if (ids.size() <= maxLength) return ids;
  return std::vector<int>(ids.end() - static_cast<std::ptrdiff_t>(maxLength), ids.end());
}

std::vector<int> prePad(const std::vector<int>& ids, int padValue, std::size_t length) {
  std::vector<int> kept = preTruncate(ids, length);
  std::vector<int> padded(length - kept.size(), padValue);
  padded.insert(padded.end(), kept.begin(), kept.end());
  return padded;
}

}  // namespace deeptune::tokenizer
