// Internal: over-long lines through libFormat's line-breaking search with their operands as atoms.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace deeptune::rewriter::internal {

/// Text whose operands were replaced by placeholders of the same width.
struct AtomizedText {
  std::string text;
  std::vector<std::string> atoms;  ///< the replaced operands, in text order
};

/// Whether `text` suits the atoms' route at all: its brackets ( [ { all matched, no ';' inside
/// brackets but a for loop's two, no block inside brackets, and no comment, preprocessor line or
/// line splice (what the normalizer formats has none). libFormat must
/// break lines of other text (a comment in an expression, text it cannot parse), and without a
/// column limit in reach that search grows without bound (12 s and 3 GiB on a mangled kernel
/// the format fuzz target found, where one 500-column pass takes 4 s; 6.4 s and 2 GiB on one
/// whose statements stood inside a '(' left open).
bool plainText(const std::string& text);

/// Whether a line of `text` has more than `columnLimit` characters.
bool hasLineWiderThan(std::string_view text, unsigned columnLimit);

/// When a line of `wide` (libFormat's output with no column limit in reach: one unwrapped line
/// per line) is wider than `columnLimit`, replaces the operands that libFormat's line-breaking
/// search would otherwise explore token by token: a parenthesized group, or a name with its call
/// and subscript groups, standing between operators (`... + (a[i] - b[i]) * ...`), 6 to
/// kMaxAtomWidth columns wide, with no literal, brace or ';' inside, not a possible cast. Each
/// becomes a numeric literal of the same width (`0777...`), so every line keeps its columns and
/// its operators. Only lines that are whole statements of function bodies get atoms (short ones
/// too: fewer tokens for libFormat to read), and no long line where libFormat read a template
/// bracket. nullopt when no line is too wide, no operand qualifies, or the text holds a
/// placeholder-like literal.
std::optional<AtomizedText> atomizeLongLines(const std::string& wide, unsigned columnLimit);

/// `formatted` (libFormat's output on an AtomizedText) with the atoms put back, or nullopt when
/// the result does not line up with `wide`: a placeholder missing or moved, spacing on a line that
/// differs from `wide` (the placeholder changed how libFormat read a neighbour), or a line wider
/// than `columnLimit` (libFormat might then have broken inside an operand).
std::optional<std::string> restoreAtoms(const std::string& formatted, const AtomizedText& atomized,
                                        const std::string& wide, unsigned columnLimit);

/// How stage 5 reached its text: every line fitted once laid out, the over-long lines were
/// broken with their operands as atoms, or the one slow libFormat pass (tests and benches look).
enum class FormatRoute { NoLongLine, Atoms, OnePass };
struct RoutedFormat {
  std::string text;  ///< libFormat's output, not yet trimmed
  FormatRoute route = FormatRoute::OnePass;
};

/// Stage 5's libFormat work (formatSource without its trimming and the cast-space fix).
RoutedFormat formatRouted(std::string_view source);

/// Operands wider than this stay tokens: they could be the best place for a break.
constexpr unsigned kMaxAtomWidth = 160;

}  // namespace deeptune::rewriter::internal
