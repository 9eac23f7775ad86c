// libFuzzer target: a vocabulary file's JSON, then encoding text with it (tests/fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tokenizer/vocab_error.hpp"
#include "tokenizer/vocabulary.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const size_t split = bytes.find('\0');  // JSON, NUL, then the text to encode
  try {
    const auto vocabulary =
        deeptune::tokenizer::Vocabulary::fromJson(bytes.substr(0, split), "fuzz.json");
    const std::string_view text = split == std::string_view::npos ? "" : bytes.substr(split + 1);
    const auto encoding =
        vocabulary.encode(text, deeptune::tokenizer::UnknownPolicy::kSkip, "fuzz.cl");
    (void)vocabulary.decode(encoding.ids);
  } catch (const deeptune::tokenizer::VocabError&) {
  }
  return 0;
}
