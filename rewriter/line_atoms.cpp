// Operands of over-long lines as same-width atoms for libFormat's line-breaking search, and back.
#include "rewriter/internal/line_atoms.hpp"

#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>

namespace deeptune::rewriter::internal {
namespace {

namespace tok = clang::tok;

struct Token {
  size_t begin = 0;
  size_t end = 0;
  tok::TokenKind kind = tok::unknown;
};

const clang::LangOptions& openClLanguage() {
  static const clang::LangOptions language = [] {
    clang::LangOptions options;
    options.OpenCL = true;
    options.OpenCLVersion = 120;
    options.C99 = true;
    return options;
  }();
  return language;
}

/// The tokens of one line (NUL-terminated, as Clang's lexer requires), with their offsets.
std::vector<Token> lexLine(const std::string& line) {
  clang::Lexer lexer(clang::SourceLocation(), openClLanguage(), line.data(), line.data(),
                     line.data() + line.size());
  std::vector<Token> tokens;
  clang::Token token;
  while (true) {
    lexer.LexFromRawLexer(token);
    if (token.is(tok::eof)) break;
    const auto end = static_cast<size_t>(lexer.getBufferLocation() - line.data());
    tokens.push_back({end - token.getLength(), end, token.getKind()});
  }
  return tokens;
}

bool isBinaryOrAssignment(tok::TokenKind kind) {
  switch (kind) {
    case tok::plus:
    case tok::minus:
    case tok::star:
    case tok::slash:
    case tok::percent:
    case tok::amp:
    case tok::pipe:
    case tok::caret:
    case tok::less:
    case tok::greater:
    case tok::lessequal:
    case tok::greaterequal:
    case tok::equalequal:
    case tok::exclaimequal:
    case tok::ampamp:
    case tok::pipepipe:
    case tok::lessless:
    case tok::greatergreater:
    case tok::equal:
    case tok::plusequal:
    case tok::minusequal:
    case tok::starequal:
    case tok::slashequal:
    case tok::percentequal:
    case tok::ampequal:
    case tok::pipeequal:
    case tok::caretequal:
    case tok::lesslessequal:
    case tok::greatergreaterequal:
      return true;
    default:
      return false;
  }
}

/// The words of `list` (separated by single spaces), as views into it.
std::set<std::string_view> wordSet(std::string_view list) {
  std::set<std::string_view> words;
  for (size_t start = 0; start < list.size();) {
    const size_t end = std::min(list.find(' ', start), list.size());
    words.insert(list.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

/// Words that never start an operand (statements, types, qualifiers, type operators).
bool isKeyword(std::string_view word) {
  static const std::set<std::string_view> keywords = wordSet(
      "if else while for do switch case default return goto break continue sizeof vec_step "
      "typedef struct union enum const volatile restrict static extern inline register auto "
      "signed unsigned void char short int long float double bool half __global global __local "
      "local __constant constant __private private __kernel kernel __attribute__ __read_only "
      "__write_only __read_write read_only write_only read_write __inline __restrict _Bool");
  return keywords.count(word) != 0;
}

/// C++ words (and other languages' words libFormat knows in C++ mode): libFormat reads a line
/// holding one as C++, with other break penalties, where an OpenCL kernel merely names a variable.
bool isCppWord(std::string_view word) {
  static const std::set<std::string_view> words = wordSet(
      "new delete class template typename operator this throw try catch namespace using public "
      "protected virtual friend explicit mutable static_cast dynamic_cast reinterpret_cast "
      "const_cast decltype noexcept nullptr alignas alignof constexpr consteval constinit "
      "co_await co_yield co_return requires concept export import module and or not xor bitand "
      "bitor compl and_eq or_eq xor_eq not_eq asm __asm__ typeid static_assert thread_local final "
      "override __declspec _Pragma __attribute__ slots signals emit Q_EMIT Q_SIGNALS Q_SLOTS "
      "__try __except __finally interface in of async await yield function var let");
  return words.count(word) != 0;
}

class LineAtomizer {
 public:
  LineAtomizer(std::string line, std::vector<std::string>& atoms)
      : line_(std::move(line)), tokens_(lexLine(line_)), atoms_(atoms) {}

  /// Whether libFormat read a '<' or '>' of the line as a template's bracket (no space beside it,
  /// where it spaces a comparison): its line-breaking penalties for such a line differ enough
  /// that the best break can fall inside an operand (found by tests/test_source_formatter.cpp).
  bool hasTemplateBracket() const {
    for (const Token& token : tokens_) {
      if (token.kind != tok::less && token.kind != tok::greater) continue;
      const bool spaced = token.begin > 0 && line_[token.begin - 1] == ' ' &&
                          token.end < line_.size() && line_[token.end] == ' ';
      if (!spaced) return true;
    }
    return false;
  }

  const std::string& line() const { return line_; }
  const std::vector<Token>& tokens() const { return tokens_; }
  std::string_view text(size_t i) const {
    return std::string_view(line_).substr(tokens_[i].begin, tokens_[i].end - tokens_[i].begin);
  }

  /// Whether the line holds only what plain C expression statements are made of: names (no C++
  /// word), numbers, string and character literals, brackets, '[' only as a subscript, ',', ';',
  /// operators, and '?' ':' only in pairs. libFormat reads anything else (a lambda, an attribute,
  /// an Objective-C message, a label, `a[:b]` in a mangled kernel) with its own penalties, which
  /// an atom could change (the format fuzz target found `a[:...]`).
  bool plainStatement() const {
    int openTernaries = 0;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      switch (tokens_[i].kind) {
        case tok::raw_identifier:
          if (isCppWord(text(i))) return false;
          break;
        case tok::l_square:
          if (i == 0 || (!is(i - 1, tok::r_paren) && !is(i - 1, tok::r_square) &&
                         !(is(i - 1, tok::raw_identifier) && !isKeyword(text(i - 1))))) {
            return false;
          }
          break;
        case tok::question:
          ++openTernaries;
          break;
        case tok::colon:
          if (--openTernaries < 0) return false;
          break;
        case tok::numeric_constant:
        case tok::string_literal:
        case tok::char_constant:
        case tok::l_paren:
        case tok::r_paren:
        case tok::r_square:
        case tok::comma:
        case tok::semi:
        case tok::period:
        case tok::arrow:
        case tok::plusplus:
        case tok::minusminus:
        case tok::exclaim:
        case tok::tilde:
          break;
        default:
          if (!isBinaryOrAssignment(tokens_[i].kind)) return false;
      }
    }
    return openTernaries == 0;
  }

  /// The line with each qualifying operand replaced by its placeholder.
  std::string atomized() {
    std::string out;
    size_t copied = 0;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      const size_t last = operandEnd(i);
      if (last == kNone) continue;
      const size_t begin = tokens_[i].begin, end = tokens_[last].end;
      out.append(line_, copied, begin - copied);
      out += '0';
      out.append(end - begin - 1, '7');
      atoms_.push_back(line_.substr(begin, end - begin));
      copied = end;
      i = last;
    }
    out.append(line_, copied, std::string::npos);
    return out;
  }

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);

  bool is(size_t i, tok::TokenKind kind) const {
    return i < tokens_.size() && tokens_[i].kind == kind;
  }
  bool opensGroup(size_t i) const { return is(i, tok::l_paren) || is(i, tok::l_square); }

  /// The index of the bracket closing the one at `open`, or kNone past a brace, ';' or a literal.
  size_t closing(size_t open) const {
    int depth = 0;
    for (size_t i = open; i < tokens_.size(); ++i) {
      switch (tokens_[i].kind) {
        case tok::l_paren:
        case tok::l_square:
          ++depth;
          break;
        case tok::r_paren:
        case tok::r_square:
          if (--depth == 0) return i;
          break;
        case tok::l_brace:
        case tok::r_brace:
        case tok::semi:
        case tok::string_literal:
        case tok::char_constant:
        case tok::unknown:
          return kNone;
        default:
          break;
      }
    }
    return kNone;
  }

  /// Whether an operand may start after token `i - 1` (an operator, an opening bracket, ...).
  /// Not after '>': libFormat may read it as a template's closer, which a call's '(' follows.
  bool operandPosition(size_t i) const {
    if (i == 0) return true;
    const tok::TokenKind before = tokens_[i - 1].kind;
    if (before == tok::greater) return false;
    if (isBinaryOrAssignment(before)) return true;
    switch (before) {
      case tok::l_paren:
      case tok::l_square:
      case tok::comma:
      case tok::question:
      case tok::colon:
      case tok::exclaim:
      case tok::tilde:
        return true;
      case tok::raw_identifier:
        return text(i - 1) == "return";
      default:
        return false;
    }
  }

  /// Whether token `i` may follow an operand that stays one (an operator, a closer, ...). Not
  /// '<': after a name or ']' libFormat may read it as a template opener, after a number never.
  bool operandFollows(size_t i) const {
    if (i >= tokens_.size() || is(i, tok::less)) return false;
    const tok::TokenKind after = tokens_[i].kind;
    if (isBinaryOrAssignment(after)) return true;
    switch (after) {
      case tok::r_paren:
      case tok::r_square:
      case tok::comma:
      case tok::semi:
      case tok::question:
      case tok::colon:
        return true;
      default:
        return false;
    }
  }

  /// `(type)` or `(type*)`: possibly a cast, which libFormat reads with what follows it.
  bool possibleCast(size_t open, size_t close) const {
    for (size_t i = open + 1; i < close; ++i) {
      if (!is(i, tok::raw_identifier) && !is(i, tok::star)) return false;
    }
    return true;
  }

  /// The last token of the operand starting at `i`, when it qualifies as an atom; else kNone.
  size_t operandEnd(size_t i) const {
    if (!operandPosition(i)) return kNone;
    size_t last = kNone;
    if (is(i, tok::l_paren)) {
      last = closing(i);
      if (last == kNone || possibleCast(i, last)) return kNone;
      while (last != kNone && is(last + 1, tok::l_square)) last = closing(last + 1);
    } else if (is(i, tok::raw_identifier) && !isKeyword(text(i)) && opensGroup(i + 1)) {
      last = i;
      while (last != kNone && opensGroup(last + 1)) last = closing(last + 1);
    }
    if (last == kNone || !operandFollows(last + 1)) return kNone;
    const size_t width = tokens_[last].end - tokens_[i].begin;
    if (width < 6 || width > kMaxAtomWidth) return kNone;
    const std::string_view operand = std::string_view(line_).substr(tokens_[i].begin, width);
    const bool ascii = std::all_of(operand.begin(), operand.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    return ascii ? last : kNone;
  }

  std::string line_;
  std::vector<Token> tokens_;
  std::vector<std::string>& atoms_;
};

/// Follows the braces of `wide` line by line, to tell which lines are whole statements of a
/// function body: the only lines whose operands become atoms. Elsewhere libFormat reads a line
/// otherwise (a file-scope line may be a declaration, whose break penalties differ), and in text
/// it could not parse into lines (unbalanced brackets) a line may continue another.
class StatementLines {
 public:
  /// Whether `line` is a statement at the indentation of its block, inside function bodies only,
  /// after a line that ended a statement or opened or closed a block, its brackets balanced, with
  /// no brace of its own.
  bool isStatement(const LineAtomizer& line) const {
    const std::vector<Token>& tokens = line.tokens();
    if (broken_ || bodies_.empty() || !brackets_.empty() || tokens.empty() ||
        tokens.back().kind != tok::semi) {
      return false;
    }
    if (previous_ != tok::semi && previous_ != tok::l_brace && previous_ != tok::r_brace) {
      return false;
    }
    if (tokens.front().begin != 2 * bodies_.size()) return false;  // a brace-less body, a label
    std::vector<tok::TokenKind> open;
    for (const Token& token : tokens) {
      if (token.kind == tok::l_brace || token.kind == tok::r_brace) return false;
      if (!matchBracket(open, token.kind)) return false;
    }
    return open.empty() && std::all_of(bodies_.begin(), bodies_.end(), [](bool b) { return b; });
  }

  /// Takes in the brackets and braces of `line`.
  void advance(const LineAtomizer& line) {
    const std::vector<Token>& tokens = line.tokens();
    for (size_t i = 0; i < tokens.size(); ++i) {
      const tok::TokenKind kind = tokens[i].kind;
      if (kind == tok::l_brace) {
        // A function's or a control statement's body follows ')', 'else' or 'do'; a bare block
        // stands in a body; anything else opens a struct, an enum or an initializer.
        const bool bareBlock =
            (previous_ == tok::semi || previous_ == tok::l_brace || previous_ == tok::r_brace) &&
            !bodies_.empty() && bodies_.back();
        bodies_.push_back(previous_ == tok::r_paren || previousElseOrDo_ || bareBlock);
      } else if (kind == tok::r_brace) {
        if (bodies_.empty()) {
          broken_ = true;
        } else {
          bodies_.pop_back();
        }
      } else if (!matchBracket(brackets_, kind)) {
        broken_ = true;
      }
      previous_ = kind;
      previousElseOrDo_ =
          kind == tok::raw_identifier && (line.text(i) == "else" || line.text(i) == "do");
    }
  }

 private:
  /// Pushes an opening '(' or '[' on `open`, pops it at its closer; false for a closer that
  /// does not match.
  static bool matchBracket(std::vector<tok::TokenKind>& open, tok::TokenKind kind) {
    if (kind == tok::l_paren || kind == tok::l_square) {
      open.push_back(kind);
    } else if (kind == tok::r_paren || kind == tok::r_square) {
      const tok::TokenKind opener = kind == tok::r_paren ? tok::l_paren : tok::l_square;
      if (open.empty() || open.back() != opener) return false;
      open.pop_back();
    }
    return true;
  }

  std::vector<bool> bodies_;              ///< per open brace: whether it opened a body
  std::vector<tok::TokenKind> brackets_;  ///< '(' and '[' still open after the last line
  tok::TokenKind previous_ = tok::semi;
  bool previousElseOrDo_ = false;
  bool broken_ = false;  ///< a closer matched nothing: not text libFormat could split into lines
};

constexpr std::string_view kPlaceholderStart = "077777";  // every placeholder begins so

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/// `restored` and `wide` hold the same characters and, except where `restored` breaks a line,
/// the same whitespace between them.
bool sameTextUpToBreaks(std::string_view restored, std::string_view wide) {
  size_t r = 0, w = 0;
  while (true) {
    const size_t runR = r, runW = w;
    while (r < restored.size() && isSpace(restored[r])) ++r;
    while (w < wide.size() && isSpace(wide[w])) ++w;
    const std::string_view spaceR = restored.substr(runR, r - runR);
    if (spaceR.find('\n') == std::string_view::npos && spaceR != wide.substr(runW, w - runW)) {
      return false;
    }
    if (r == restored.size() || w == wide.size()) return r == restored.size() && w == wide.size();
    if (restored[r++] != wide[w++]) return false;
  }
}

}  // namespace

bool plainText(const std::string& text) {
  if (text.find("\\\n") != std::string::npos) return false;  // a line splice
  clang::Lexer lexer(clang::SourceLocation(), openClLanguage(), text.data(), text.data(),
                     text.data() + text.size());
  lexer.SetCommentRetentionState(true);
  struct Open {
    tok::TokenKind kind;
    int semicolons;  ///< a for loop's '(' holds two; -1: any other '(' or '[', which holds none
  };
  std::vector<Open> open;
  bool afterFor = false;
  clang::Token token;
  while (true) {
    lexer.LexFromRawLexer(token);
    const tok::TokenKind kind = token.getKind();
    switch (kind) {
      case tok::eof:
        return open.empty();
      case tok::comment:
      case tok::hash:
      case tok::hashhash:
      case tok::unknown:
        return false;
      case tok::l_paren:
      case tok::l_square:
        open.push_back({kind, kind == tok::l_paren && afterFor ? 0 : -1});
        break;
      case tok::l_brace:  // a block inside brackets is no plain C either
        if (!open.empty() && open.back().kind != tok::l_brace) return false;
        open.push_back({kind, 0});
        break;
      case tok::semi:  // ';' inside brackets only in a for loop's header, twice
        if (!open.empty() && open.back().kind != tok::l_brace &&
            (open.back().semicolons < 0 || ++open.back().semicolons > 2)) {
          return false;
        }
        break;
      case tok::r_paren:
      case tok::r_square:
      case tok::r_brace: {
        const tok::TokenKind opener = kind == tok::r_paren    ? tok::l_paren
                                      : kind == tok::r_square ? tok::l_square
                                                              : tok::l_brace;
        if (open.empty() || open.back().kind != opener) return false;
        open.pop_back();
        break;
      }
      default:
        break;
    }
    afterFor = kind == tok::raw_identifier && token.getRawIdentifier() == "for";
  }
}

bool hasLineWiderThan(std::string_view text, unsigned columnLimit) {
  size_t start = 0;
  for (size_t end = text.find('\n');; end = text.find('\n', start)) {
    if (end == std::string_view::npos) return text.size() - start > columnLimit;
    if (end - start > columnLimit) return true;
    start = end + 1;
  }
}

std::optional<AtomizedText> atomizeLongLines(const std::string& wide, unsigned columnLimit) {
  if (wide.find(kPlaceholderStart) != std::string::npos || !hasLineWiderThan(wide, columnLimit)) {
    return std::nullopt;
  }
  AtomizedText result;
  StatementLines statements;
  size_t start = 0;
  while (start <= wide.size()) {
    size_t end = wide.find('\n', start);
    if (end == std::string::npos) end = wide.size();
    LineAtomizer line(wide.substr(start, end - start), result.atoms);
    // A long line that is not such a statement, or where libFormat read a template bracket,
    // keeps its tokens: libFormat searches it in full, as in the one slow pass.
    const bool atomize = statements.isStatement(line) && line.plainStatement() &&
                         !(end - start > columnLimit && line.hasTemplateBracket());
    result.text += atomize ? line.atomized() : line.line();
    statements.advance(line);
    if (end < wide.size()) result.text += '\n';
    start = end + 1;
  }
  if (result.atoms.empty()) return std::nullopt;
  return result;
}

std::optional<std::string> restoreAtoms(const std::string& formatted, const AtomizedText& atomized,
                                        const std::string& wide, unsigned columnLimit) {
  std::string restored;
  size_t copied = 0, next = 0;
  for (size_t at = formatted.find(kPlaceholderStart); at != std::string::npos;
       at = formatted.find(kPlaceholderStart, copied)) {
    size_t end = at + 1;
    while (end < formatted.size() && formatted[end] == '7') ++end;
    if (next == atomized.atoms.size() || end - at != atomized.atoms[next].size()) {
      return std::nullopt;
    }
    restored.append(formatted, copied, at - copied);
    restored += atomized.atoms[next++];
    copied = end;
  }
  restored.append(formatted, copied, std::string::npos);
  if (next != atomized.atoms.size() || !sameTextUpToBreaks(restored, wide) ||
      hasLineWiderThan(restored, columnLimit)) {
    return std::nullopt;
  }
  return restored;
}

}  // namespace deeptune::rewriter::internal
