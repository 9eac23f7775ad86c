// libFuzzer target: the rewriter on any text, through the calls a user makes (normalize, the
// kernel list, extraction, coarsening by 2) (tests/fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "rewriter/normalizer.hpp"
#include "rewriter/rewrite_error.hpp"

namespace {

/// A RewriteError is the rewriter's answer to input it cannot normalize, "crashed on this input"
/// included (a signal in the bounded child: Clang 15 crashes on some malformed sources, which
/// the child exists to contain); but "the normalizer stopped" says the child exited for no bound:
/// a sanitizer report (scripts/fuzz sets ASan's exit code; the child's stderr goes nowhere).
void check(const deeptune::rewriter::RewriteError& error) {
  if (std::string_view(error.what()).find("the normalizer stopped") != std::string_view::npos) {
    __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const deeptune::rewriter::Normalizer normalizer;
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  std::string normalized;
  try {
    normalized = normalizer.normalize(source, "fuzz.cl");
  } catch (const deeptune::rewriter::RewriteError& error) {
    check(error);
    return 0;
  }
  try {
    // What normalize() accepted, the other calls take too; its output is a fixed point.
    for (const auto& kernel : normalizer.kernels(source, "fuzz.cl")) {
      normalizer.extractKernel(source, "fuzz.cl", kernel.original);
      normalizer.coarsen(source, "fuzz.cl", kernel.original, 2, false);
    }
    normalizer.normalize(normalized, "normalized.cl");
  } catch (const deeptune::rewriter::RewriteError& error) {
    check(error);
  }
  return 0;
}
