// Stage 5 of the normalizer: clang-format (libFormat) with the style of the paper's data.
#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>

#include <regex>

#include "rewriter/normalizer.hpp"

namespace deeptune::rewriter {
namespace {

clang::format::FormatStyle paperStyle() {
  using clang::format::FormatStyle;
  FormatStyle style = clang::format::getGoogleStyle(FormatStyle::LK_Cpp);
  style.ColumnLimit = 500;
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

}  // namespace

std::string formatSource(std::string_view source) {
  static const clang::format::FormatStyle style = paperStyle();
  const llvm::StringRef code(source.data(), source.size());
  const clang::tooling::Replacements replacements = clang::format::reformat(
      style, code, {clang::tooling::Range(0, static_cast<unsigned>(code.size()))}, "kernel.cl");
  auto formatted = clang::tooling::applyAllReplacements(code, replacements);
  if (!formatted) {
    llvm::consumeError(formatted.takeError());
    return trim(source);  // libFormat's own edits never conflict; keep the text if they did
  }
  return trim(undoArrayPointerCastSpace(*formatted));
}

}  // namespace deeptune::rewriter
