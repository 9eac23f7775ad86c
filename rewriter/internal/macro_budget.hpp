// Internal: bounds the work of macro expansion (an exponential macro must not hang the rewriter).
#pragma once

#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

#include <cstddef>
#include <optional>
#include <string>

namespace deeptune::rewriter::internal {

/// One expansion that would have exceeded the budget, at its presumed position.
struct MacroOverrun {
  int line = 1;
  int column = 1;
  std::string message;
};

/// Preprocessor callbacks that estimate, before Clang performs it, an upper bound on the tokens
/// each macro expansion produces (arguments pre-expanded, bodies rescanned, nested invocations in
/// arguments and bodies followed). When one expansion, or all of them together, would exceed the
/// budget, every macro is disabled so that what Clang has already started stays small, and the
/// first overrun is recorded for the caller to report. Clang offers no way to stop a preprocessor
/// mid-file; disabling the macros bounds its work instead.
class MacroBudget : public clang::PPCallbacks {
 public:
  /// Records the first overrun in `overrun` (which must outlive the preprocessor's run).
  MacroBudget(clang::Preprocessor& preprocessor, std::size_t perExpansionTokens,
              std::size_t totalTokens, std::optional<MacroOverrun>& overrun);

  void MacroExpands(const clang::Token& name, const clang::MacroDefinition& definition,
                    clang::SourceRange range, const clang::MacroArgs* arguments) override;

 private:
  void disableAllMacros();

  clang::Preprocessor& preprocessor_;
  std::size_t perExpansion_;
  std::size_t total_;
  std::size_t spent_ = 0;
  std::optional<MacroOverrun>& overrun_;
};

}  // namespace deeptune::rewriter::internal
