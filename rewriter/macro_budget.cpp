// Bounds macro expansion: estimates each expansion's size before Clang performs it (see header).
#include "rewriter/internal/macro_budget.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/MacroArgs.h>
#include <clang/Lex/MacroInfo.h>

#include <algorithm>
#include <map>
#include <optional>
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
      Use use;
      if (!invocation(tokens, i, *macro, owner, sizes, depth, use)) {
        total = add(total, 1);  // a function-like name without '(': it stays as it is here
        continue;
      }
      // An expansion that ends in a function-like macro's name takes the '(' that follows.
      std::size_t size = use.size;
      std::size_t last = use.last;
      while (use.callee != nullptr || use.pastedTail) {
        Use next;
        const bool invoked = use.callee != nullptr
                                 ? invocation(tokens, last, *use.callee, owner, sizes, depth, next)
                                 : anyInvocation(tokens, last, owner, sizes, depth, next);
        if (!invoked) break;
        size = add(size, next.size);
        last = next.last;
        use = next;
      }
      total = add(total, size);
      i = last;
    }
    return std::min(total, cap_ + 1);
  }

 private:
  std::size_t add(std::size_t a, std::size_t b) const { return std::min(a + b, cap_ + 1); }

  /// One use of a macro in a token sequence.
  struct Use {
    std::size_t size = 0;  ///< tokens it expands to
    std::size_t last = 0;  ///< index of its last token (the name, or the ')' of its arguments)
    const clang::MacroInfo* callee = nullptr;  ///< function-like macro named at its end, if any
    bool pastedTail = false;  ///< its end is a pasted name (`a##b`): it may name any macro
  };

  /// The use of `macro` whose name is tokens[at] (its arguments follow for a function-like
  /// macro). False if a function-like macro has no argument list there.
  bool invocation(TokenSpan tokens, std::size_t at, const clang::MacroInfo& macro,
                  const clang::MacroInfo* owner, const std::vector<std::size_t>& sizes, int depth,
                  Use& use) {
    use = Use();
    const TokenSpan body = macro.tokens();
    use.pastedTail = body.size() >= 2 && body[body.size() - 2].is(clang::tok::hashhash);
    if (macro.isObjectLike()) {
      use.size = expansion(macro, {}, depth + 1);
      use.last = at;
      use.callee = trailingFunction(body, depth);
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
    use.size = expansion(macro, argumentSizes, depth + 1);
    use.last = close;
    if (!body.empty()) {  // a body ending in a parameter ends in that argument
      const clang::IdentifierInfo* name = body.back().getIdentifierInfo();
      const int parameter = name != nullptr ? macro.getParameterNum(name) : -1;
      use.callee = parameter < 0 ? trailingFunction(body, depth)
                   : static_cast<std::size_t>(parameter) < arguments.size()
                       ? trailingFunction(arguments[static_cast<std::size_t>(parameter)], depth)
                       : nullptr;
    }
    return true;
  }

  /// After a pasted name, an argument list may invoke any function-like macro of the file: the
  /// largest of those invocations, each argument as large as the whole list (the chain stops
  /// there). False if no argument list follows.
  bool anyInvocation(TokenSpan tokens, std::size_t at, const clang::MacroInfo* owner,
                     const std::vector<std::size_t>& sizes, int depth, Use& use) {
    if (!candidates_) {
      std::vector<const clang::IdentifierInfo*> names;
      for (const auto& entry : preprocessor_.macros(/*IncludeExternalMacros=*/false)) {
        names.push_back(entry.first);
      }
      candidates_.emplace();
      for (const clang::IdentifierInfo* name : names) {
        const clang::MacroInfo* info = preprocessor_.getMacroInfo(name);
        if (info != nullptr && info->isFunctionLike() && info->isEnabled()) {
          candidates_->push_back(info);
        }
      }
    }
    // Every argument is at most the whole list: one estimate of it serves every candidate.
    int nesting = 0;
    std::size_t close = 0;
    for (std::size_t i = at + 1; i < tokens.size() && !tokens[i].is(clang::tok::eof); ++i) {
      if (i == at + 1 && !tokens[i].is(clang::tok::l_paren)) return false;
      if (tokens[i].is(clang::tok::l_paren)) ++nesting;
      if (tokens[i].is(clang::tok::r_paren) && --nesting == 0) {
        close = i;
        break;
      }
    }
    if (close == 0) return false;
    const TokenSpan list = tokens.slice(at + 2, close - at - 2);
    const std::size_t listSize =
        std::max(sequence(list, owner, sizes, depth), unexpanded(list, owner, sizes));
    use = Use();
    use.last = close;
    for (const clang::MacroInfo* candidate : *candidates_) {
      if (active_.count(candidate) != 0) continue;
      use.size = std::max(
          use.size,
          expansion(*candidate, std::vector<std::size_t>(candidate->getNumParams(), listSize),
                    depth + 1));
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
  std::optional<std::vector<const clang::MacroInfo*>> candidates_;  ///< for anyInvocation
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
