// Bounds macro expansion: estimates each expansion's size before Clang performs it (see header).
#include "rewriter/internal/macro_budget.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/MacroArgs.h>
#include <clang/Lex/MacroInfo.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace deeptune::rewriter::internal {
namespace {

using TokenSpan = llvm::ArrayRef<clang::Token>;

/// Macros nested deeper than this count as over budget (no real kernel comes near).
constexpr int kMaxMacroDepth = 200;

/// An upper bound on the tokens a token sequence becomes once its macros are expanded, saturating
/// just above `cap` (so that exponential definitions cost linear work to estimate).
class ExpansionEstimator {
 public:
  ExpansionEstimator(clang::Preprocessor& preprocessor, std::size_t cap)
      : preprocessor_(preprocessor), cap_(cap) {}

  /// The expansion of `macro` whose parameters stand for arguments of `sizes` tokens each.
  std::size_t expansion(const clang::MacroInfo& macro, const std::vector<std::size_t>& sizes,
                        int depth) {
    if (depth > kMaxMacroDepth) return cap_ + 1;
    auto key = std::make_pair(&macro, sizes);
    if (const auto found = memo_.find(key); found != memo_.end()) return found->second;
    active_.insert(&macro);
    const std::size_t size =
        sequence(macro.tokens(), macro.isFunctionLike() ? &macro : nullptr, sizes, depth);
    active_.erase(&macro);
    memo_.emplace(std::move(key), size);
    return size;
  }

  /// `tokens` (up to an eof token) expanded; identifiers naming a parameter of `owner` stand for
  /// arguments of `sizes` tokens.
  std::size_t sequence(TokenSpan tokens, const clang::MacroInfo* owner,
                       const std::vector<std::size_t>& sizes, int depth) {
    std::size_t total = 0;
    for (std::size_t i = 0; i < tokens.size() && total <= cap_; ++i) {
      if (tokens[i].is(clang::tok::eof)) break;
      const clang::IdentifierInfo* name = tokens[i].getIdentifierInfo();
      const int parameter = owner != nullptr && name != nullptr ? owner->getParameterNum(name) : -1;
      if (parameter >= 0) {
        total = add(total, sizes[static_cast<std::size_t>(parameter)]);
        continue;
      }
      const clang::MacroInfo* macro = name != nullptr ? preprocessor_.getMacroInfo(name) : nullptr;
      if (macro == nullptr || !macro->isEnabled() || active_.count(macro) != 0) {
        total = add(total, 1);
        continue;
      }
      std::size_t last = i;  // the last token this use of the macro takes
      std::size_t size = 0;
      const clang::MacroInfo* callee = nullptr;
      if (!invocation(tokens, i, *macro, owner, sizes, depth, size, last, callee)) {
        total = add(total, 1);  // a function-like name without '(': it stays as it is here
        continue;
      }
      // An expansion that ends in a function-like macro's name takes the '(' that follows.
      while (callee != nullptr) {
        std::size_t calleeSize = 0;
        const clang::MacroInfo* current = callee;
        if (!invocation(tokens, last, *current, owner, sizes, depth, calleeSize, last, callee)) {
          break;
        }
        size = add(size, calleeSize);
      }
      total = add(total, size);
      i = last;
    }
    return std::min(total, cap_ + 1);
  }

 private:
  std::size_t add(std::size_t a, std::size_t b) const { return std::min(a + b, cap_ + 1); }

  /// The use of `macro` whose name is tokens[at] (its arguments follow for a function-like
  /// macro): sets its expanded `size`, `last` (the index of its last token) and `callee` (the
  /// function-like macro whose name ends the expansion, or null). False if a function-like macro
  /// has no argument list there.
  bool invocation(TokenSpan tokens, std::size_t at, const clang::MacroInfo& macro,
                  const clang::MacroInfo* owner, const std::vector<std::size_t>& sizes, int depth,
                  std::size_t& size, std::size_t& last, const clang::MacroInfo*& callee) {
    if (macro.isObjectLike()) {
      size = expansion(macro, {}, depth + 1);
      last = at;
      callee = trailingFunction(macro.tokens(), depth);
      return true;
    }
    std::vector<TokenSpan> arguments;
    const std::size_t close = splitArguments(tokens, at + 1, macro, arguments);
    if (close == 0) return false;
    std::vector<std::size_t> argumentSizes(macro.getNumParams(), 0);
    for (std::size_t k = 0; k < arguments.size() && k < argumentSizes.size(); ++k) {
      // Beside # or ## an argument is used unexpanded: count the larger of both forms.
      argumentSizes[k] = std::max(sequence(arguments[k], owner, sizes, depth),
                                  unexpanded(arguments[k], owner, sizes));
    }
    size = expansion(macro, argumentSizes, depth + 1);
    last = close;
    callee = nullptr;
    if (!macro.tokens_empty()) {  // a body ending in a parameter ends in that argument
      const clang::IdentifierInfo* name = macro.tokens().back().getIdentifierInfo();
      const int parameter = name != nullptr ? macro.getParameterNum(name) : -1;
      callee = parameter < 0 ? trailingFunction(macro.tokens(), depth)
               : static_cast<std::size_t>(parameter) < arguments.size()
                   ? trailingFunction(arguments[static_cast<std::size_t>(parameter)], depth)
                   : nullptr;
    }
    return true;
  }

  /// The function-like macro whose name ends `tokens` once expanded (through object-like
  /// macros), which an argument list after them would invoke; null if there is none.
  const clang::MacroInfo* trailingFunction(TokenSpan tokens, int depth) {
    for (int step = 0; step <= kMaxMacroDepth - depth && !tokens.empty(); ++step) {
      const clang::IdentifierInfo* name = tokens.back().getIdentifierInfo();
      const clang::MacroInfo* next = name != nullptr ? preprocessor_.getMacroInfo(name) : nullptr;
      if (next == nullptr || !next->isEnabled()) return nullptr;
      if (next->isFunctionLike()) return next;
      tokens = next->tokens();
    }
    return nullptr;
  }

  /// Tokens of `tokens` with parameters of `owner` replaced but no macro expanded.
  std::size_t unexpanded(TokenSpan tokens, const clang::MacroInfo* owner,
                         const std::vector<std::size_t>& sizes) const {
    std::size_t total = 0;
    for (const clang::Token& token : tokens) {
      const clang::IdentifierInfo* name = token.getIdentifierInfo();
      const int parameter = owner != nullptr && name != nullptr ? owner->getParameterNum(name) : -1;
      total = add(total, parameter >= 0 ? sizes[static_cast<std::size_t>(parameter)] : 1);
    }
    return total;
  }

  /// Splits the argument list of an invocation of `macro` whose '(' is tokens[open]; returns the
  /// index of its ')' (0 if there is none).
  static std::size_t splitArguments(TokenSpan tokens, std::size_t open,
                                    const clang::MacroInfo& macro,
                                    std::vector<TokenSpan>& arguments) {
    if (open >= tokens.size() || !tokens[open].is(clang::tok::l_paren)) return 0;
    const std::size_t lastSplit = macro.getNumParams() > 0 ? macro.getNumParams() - 1 : 0;
    int depth = 0;
    std::size_t start = open + 1;
    for (std::size_t i = open; i < tokens.size() && !tokens[i].is(clang::tok::eof); ++i) {
      if (tokens[i].is(clang::tok::l_paren)) {
        ++depth;
      } else if (tokens[i].is(clang::tok::r_paren) && --depth == 0) {
        arguments.push_back(tokens.slice(start, i - start));
        return i;
      } else if (depth == 1 && tokens[i].is(clang::tok::comma) &&
                 !(macro.isVariadic() && arguments.size() >= lastSplit)) {
        arguments.push_back(tokens.slice(start, i - start));
        start = i + 1;
      }
    }
    return 0;
  }

  clang::Preprocessor& preprocessor_;
  std::size_t cap_;
  std::set<const clang::MacroInfo*> active_;
  std::map<std::pair<const clang::MacroInfo*, std::vector<std::size_t>>, std::size_t> memo_;
};

}  // namespace

MacroBudget::MacroBudget(clang::Preprocessor& preprocessor, std::size_t perExpansionTokens,
                         std::size_t totalTokens, std::optional<MacroOverrun>& overrun)
    : preprocessor_(preprocessor),
      perExpansion_(perExpansionTokens),
      total_(totalTokens),
      overrun_(overrun) {}

void MacroBudget::MacroExpands(const clang::Token& name, const clang::MacroDefinition& definition,
                               clang::SourceRange, const clang::MacroArgs* arguments) {
  const clang::MacroInfo* macro = definition.getMacroInfo();
  if (macro == nullptr) return;
  if (overrun_) {  // a macro whose expansion ended was enabled again
    disableAllMacros();
    return;
  }
  ExpansionEstimator estimator(preprocessor_, perExpansion_);
  std::vector<std::size_t> sizes(macro->getNumParams(), 0);
  if (arguments != nullptr) {
    for (unsigned k = 0; k < sizes.size() && k < arguments->getNumMacroArguments(); ++k) {
      const clang::Token* start = arguments->getUnexpArgument(k);
      const TokenSpan argument(start, clang::MacroArgs::getArgLength(start));
      sizes[k] =
          std::max<std::size_t>(estimator.sequence(argument, nullptr, {}, 0), argument.size());
    }
  }
  const std::size_t estimate = estimator.expansion(*macro, sizes, 0);
  spent_ = std::min(spent_ + estimate, total_ + 1);
  if (estimate <= perExpansion_ && spent_ <= total_) return;
  const clang::SourceManager& sources = preprocessor_.getSourceManager();
  const clang::PresumedLoc where =
      sources.getPresumedLoc(sources.getExpansionLoc(name.getLocation()));
  MacroOverrun overrun;
  if (where.isValid()) {
    overrun.line = static_cast<int>(where.getLine());
    overrun.column = static_cast<int>(where.getColumn());
  }
  const std::string macroName = name.getIdentifierInfo() != nullptr
                                    ? name.getIdentifierInfo()->getName().str()
                                    : std::string("a macro");
  overrun.message = estimate > perExpansion_
                        ? "macro '" + macroName + "' expands to more than " +
                              std::to_string(perExpansion_) + " tokens"
                        : "macros expand to more than " + std::to_string(total_) + " tokens in all";
  overrun_ = std::move(overrun);
  disableAllMacros();
}

void MacroBudget::disableAllMacros() {
  std::vector<const clang::IdentifierInfo*> names;  // looked up after the walk (lookups may load)
  for (const auto& entry : preprocessor_.macros(/*IncludeExternalMacros=*/true)) {
    names.push_back(entry.first);
  }
  for (const clang::IdentifierInfo* name : names) {
    clang::MacroInfo* info = preprocessor_.getMacroInfo(name);
    if (info != nullptr && info->isEnabled()) info->DisableMacro();
  }
}

}  // namespace deeptune::rewriter::internal
