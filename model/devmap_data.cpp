// Device-mapping examples from the paper's CSV rows: tokens, aux inputs, labels, fingerprint.
#include "model/devmap_data.hpp"

#include <cstdio>
#include <map>

#include "data/checksum.hpp"
#include "tokenizer/sequence.hpp"

namespace deeptune::model {

ModelInfo devmapModelInfo(const tokenizer::Vocabulary& vocabulary, int maxLength,
                          bool paperPadding) {
  ModelInfo info;
  info.task = "devmap";
  info.vocabulary = vocabulary.tokens();
  info.auxInputs = {"transfer", "wgsize"};
  info.labels = {"CPU", "GPU"};
  info.maxLength = maxLength;
  info.paperPadding = paperPadding;
  return info;
}

tokenizer::Vocabulary devmapVocabulary(const std::vector<data::DevmapRow>& rows,
                                       const std::string& name) {
  std::vector<std::string_view> sources;
  for (const auto& row : rows) sources.push_back(row.src);
  return tokenizer::Vocabulary::deriveFromTexts(sources, name);
}

std::vector<int> modelTokens(const tokenizer::Vocabulary& vocabulary, const std::string& source,
                             int maxLength) {
  const auto encoding = vocabulary.encode(source, tokenizer::UnknownPolicy::kSkip);
  return tokenizer::preTruncate(encoding.ids, static_cast<size_t>(maxLength));
}

std::vector<Example> devmapExamples(const std::vector<data::DevmapRow>& rows,
                                    const tokenizer::Vocabulary& vocabulary, int maxLength) {
  std::map<std::string, std::vector<int>> encoded;
  std::vector<Example> examples;
  examples.reserve(rows.size());
  for (const auto& row : rows) {
    auto found = encoded.find(row.src);
    if (found == encoded.end()) {
      found = encoded.emplace(row.src, modelTokens(vocabulary, row.src, maxLength)).first;
    }
    Example example;
    example.tokens = found->second;
    example.aux = {static_cast<float>(row.transfer), static_cast<float>(row.wgsize)};
    example.label = row.oracle == "GPU" ? 1 : 0;
    examples.push_back(std::move(example));
  }
  return examples;
}

std::string devmapFingerprint(const std::vector<data::DevmapRow>& rows) {
  uint64_t hash = data::kFnv1a64Basis;
  auto mix = [&hash](const std::string& text) {
    hash = data::fnv1a64("\xff", data::fnv1a64(text, hash));  // field separator
  };
  for (const auto& row : rows) {
    mix(row.benchmark);
    mix(row.dataset);
    mix(row.oracle);
    mix(std::to_string(row.transfer));
    mix(std::to_string(row.wgsize));
    mix(row.src);
  }
  return "fnv1a64:" + data::hex64(hash);
}

}  // namespace deeptune::model
