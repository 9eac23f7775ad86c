// Thread-coarsening examples from runtime CSV rows: one kernel per example, the best factor as
// label.
#include "model/coarsening_data.hpp"

#include <algorithm>

#include "data/checksum.hpp"
#include "model/devmap_data.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {

ModelInfo coarseningModelInfo(const tokenizer::Vocabulary& vocabulary, int maxLength) {
  ModelInfo info;
  info.task = "coarsening";
  info.vocabulary = vocabulary.tokens();
  for (int factor : data::coarseningFactors()) info.labels.push_back(std::to_string(factor));
  info.maxLength = maxLength;
  return info;
}

std::vector<Example> coarseningExamples(const std::vector<data::CoarseningKernel>& kernels,
                                        const tokenizer::Vocabulary& vocabulary, int maxLength) {
  const std::vector<int>& factors = data::coarseningFactors();
  std::vector<Example> examples;
  for (const data::CoarseningKernel& kernel : kernels) {
    const auto label = std::find(factors.begin(), factors.end(), kernel.bestFactor);
    if (label == factors.end()) {
      throw ModelError("kernel '" + kernel.kernel + "': best factor " +
                       std::to_string(kernel.bestFactor) + " is not one of 1, 2, 4, 8, 16, 32");
    }
    Example example;
    example.tokens = modelTokens(vocabulary, kernel.src, maxLength);
    example.label = static_cast<int>(label - factors.begin());
    for (int factor : factors) example.gains.push_back(static_cast<float>(kernel.speedup(factor)));
    examples.push_back(std::move(example));
  }
  return examples;
}

tokenizer::Vocabulary coarseningVocabulary(const std::vector<data::CoarseningKernel>& kernels,
                                           const std::string& name) {
  std::vector<std::string_view> sources;
  for (const data::CoarseningKernel& kernel : kernels) sources.push_back(kernel.src);
  return tokenizer::Vocabulary::deriveFromTexts(sources, name);
}

std::string coarseningFingerprint(const std::vector<data::CoarseningKernel>& kernels) {
  std::string material;
  for (const data::CoarseningKernel& kernel : kernels) {
    material += kernel.kernel + '\0' + kernel.src + '\0';
    for (const auto& [factor, runtime] : kernel.runtimeNs) {
      material += std::to_string(factor) + ':' + std::to_string(runtime) + ';';
    }
  }
  return data::hex64(data::fnv1a64(material));
}

}  // namespace deeptune::model
