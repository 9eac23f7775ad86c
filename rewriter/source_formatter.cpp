// Stage 5 of the normalizer: clang-format (libFormat) with the style of the paper's data.
#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>

#include <optional>
#include <regex>

#include "rewriter/internal/line_atoms.hpp"
#include "rewriter/normalizer.hpp"

namespace deeptune::rewriter {
namespace {

constexpr unsigned kColumnLimit = 500;
/// A limit no line reaches (inputs are at most 4 MiB, statements at most 8,192 tokens).
constexpr unsigned kOutOfReach = 1u << 20;

clang::format::FormatStyle styleWithColumnLimit(unsigned columnLimit) {
  using clang::format::FormatStyle;
  FormatStyle style = clang::format::getGoogleStyle(FormatStyle::LK_Cpp);
  style.ColumnLimit = columnLimit;
  style.IndentWidth = 2;
  style.AllowShortBlocksOnASingleLine = FormatStyle::SBS_Never;
  style.AllowShortCaseLabelsOnASingleLine = false;
  style.AllowShortFunctionsOnASingleLine = FormatStyle::SFS_None;
  style.AllowShortLoopsOnASingleLine = false;
  style.AllowShortIfStatementsOnASingleLine = FormatStyle::SIS_Never;
  style.DerivePointerAlignment = false;
  style.PointerAlignment = FormatStyle::PAS_Left;
  return style;
}

/// The paper's style, and the same with no column limit in reach.
const clang::format::FormatStyle& paperStyle() {
  static const clang::format::FormatStyle style = styleWithColumnLimit(kColumnLimit);
  return style;
}
const clang::format::FormatStyle& wideStyle() {
  static const clang::format::FormatStyle style = styleWithColumnLimit(kOutOfReach);
  return style;
}

/// clang-format 14 (and 15) writes a space after a cast to a pointer-to-array type, `(T(*)[13]) b`,
/// where clang-format 3.9 (the paper's) wrote none; remove it when an operand follows.
std::string undoArrayPointerCastSpace(const std::string& text) {
  static const std::regex cast(R"(\(\*\)(\[[^\]\n]*\])+\) (?=[A-Za-z_0-9(]))");
  std::string output;
  auto begin = std::sregex_iterator(text.begin(), text.end(), cast);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const size_t end = static_cast<size_t>(it->position() + it->length());
    output.append(text, last, end - 1 - last);
    last = end;
  }
  output.append(text, last, std::string::npos);
  return output;
}

std::string trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string_view::npos) return "";
  const size_t last = text.find_last_not_of(" \t\r\n\f\v");
  return std::string(text.substr(first, last - first + 1));
}

/// One libFormat pass over the whole text with `style`. libFormat's lexer reads up to a NUL
/// after the text, so the text is a std::string (a string_view's end is not terminated).
std::string reformatted(const clang::format::FormatStyle& style, const std::string& source) {
  const llvm::StringRef code(source.data(), source.size());
  const clang::tooling::Replacements replacements = clang::format::reformat(
      style, code, {clang::tooling::Range(0, static_cast<unsigned>(code.size()))}, "kernel.cl");
  auto formatted = clang::tooling::applyAllReplacements(code, replacements);
  if (!formatted) {
    llvm::consumeError(formatted.takeError());
    return source;  // libFormat's own edits never conflict; keep the text if they did
  }
  return *formatted;
}

}  // namespace

namespace internal {

/// One pass with the paper's style, the fast way (rewriter/README.md, "Formatting long lines"):
/// for plain text (internal/line_atoms.hpp), first a pass with no limit in reach, which lays each
/// unwrapped line on one line and costs no line-breaking search. When every line then fits, that is
/// the answer. Otherwise the operands become atoms (internal/line_atoms.hpp), the paper's style
/// breaks the atomized text (a search over a few operators instead of every token of every operand)
/// and the atoms go back; whatever does not line up falls back to the one slow pass.
RoutedFormat formatRouted(std::string_view text) {
  const std::string source(text);
  if (!plainText(source)) return {reformatted(paperStyle(), source), FormatRoute::OnePass};
  std::string wide = reformatted(wideStyle(), source);
  // Columns are counted as bytes below; a tab left in a literal is wider: the slow pass.
  if (wide.find('\t') != std::string::npos) {
    return {reformatted(paperStyle(), source), FormatRoute::OnePass};
  }
  if (!hasLineWiderThan(wide, kColumnLimit)) return {std::move(wide), FormatRoute::NoLongLine};
  if (const auto atomized = atomizeLongLines(wide, kColumnLimit)) {
    if (auto restored = restoreAtoms(reformatted(paperStyle(), atomized->text), *atomized, wide,
                                     kColumnLimit)) {
      return {std::move(*restored), FormatRoute::Atoms};
    }
  }
  return {reformatted(paperStyle(), source), FormatRoute::OnePass};
}

}  // namespace internal

std::string formatSource(std::string_view source) {
  return trim(undoArrayPointerCastSpace(internal::formatRouted(source).text));
}

std::string formatSourceInOnePass(std::string_view source) {
  return trim(undoArrayPointerCastSpace(reformatted(paperStyle(), std::string(source))));
}

}  // namespace deeptune::rewriter
