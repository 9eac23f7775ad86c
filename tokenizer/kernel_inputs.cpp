// A normalized kernel's token ids and static counts, as training and prediction read them.
#include "tokenizer/kernel_inputs.hpp"

#include "tokenizer/sequence.hpp"
#include "tokenizer/static_counts.hpp"

namespace deeptune::tokenizer {

KernelInputs kernelInputs(const Vocabulary& vocabulary, std::string_view normalizedSource,
                          size_t maxLength, const std::string& name, bool withStaticCounts) {
  const auto encoding = vocabulary.encode(normalizedSource, UnknownPolicy::kSkip, name);
  KernelInputs inputs;
  inputs.tokens = preTruncate(encoding.ids, maxLength);
  inputs.skipped = encoding.skipped;
  if (withStaticCounts) inputs.staticCounts = staticCountValues(staticCounts(normalizedSource));
  return inputs;
}

}  // namespace deeptune::tokenizer
