// libFuzzer target: the paper's vocabulary encoding any text, strict and skipping
// (tests/fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tokenizer/vocab_error.hpp"
#include "tokenizer/vocabulary.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto vocabulary =
      deeptune::tokenizer::Vocabulary::load(DEEPTUNE_FUZZ_DATA_DIR "/vocab-128.json");
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (auto policy :
       {deeptune::tokenizer::UnknownPolicy::kSkip, deeptune::tokenizer::UnknownPolicy::kStrict}) {
    try {
      const auto encoding = vocabulary.encode(text, policy, "fuzz.cl");
      if (policy == deeptune::tokenizer::UnknownPolicy::kStrict &&
          vocabulary.decode(encoding.ids) != text) {
        __builtin_trap();  // strict encoding must round-trip
      }
    } catch (const deeptune::tokenizer::VocabError&) {
    }
  }
  return 0;
}
