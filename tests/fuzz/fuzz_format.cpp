// libFuzzer target: stage 5 the fast way (long lines with their operands as atoms) against one
// libFormat pass, on any text; a difference traps (tests/fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "data/text_check.hpp"
#include "rewriter/normalizer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (16u << 10)) return 0;  // libFormat's own search on an atom-less long line is slow
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  // What stage 5 is given: the Normalizer refuses NUL bytes and invalid UTF-8 before it starts.
  if (deeptune::data::findTextFault(source)) return 0;
  if (deeptune::rewriter::formatSource(source) !=
      deeptune::rewriter::formatSourceInOnePass(source)) {
    __builtin_trap();
  }
  return 0;
}
