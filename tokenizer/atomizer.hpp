// Hybrid greedy atomizer: maximal munch over multi-character atoms, else one UTF-8 character.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace deeptune::tokenizer {

/// The 108 multi-character candidate atoms of the paper's OpenCL atomizer (SPEC.md §2), in the
/// order the spec lists them. Single characters are always allowed and are not listed.
const std::vector<std::string>& candidateAtoms();

/// Byte length of the UTF-8 character whose lead byte is `lead` (1 for a stray or invalid byte).
std::size_t utf8Length(unsigned char lead);

/// Splits text into tokens: at each position the longest atom that matches there, else one
/// character. No word boundaries: with atom `do`, `dot` becomes `do`,`t`.
class Atomizer {
 public:
  /// One token found at a position of the text.
  struct Match {
    std::size_t length = 0;  ///< bytes consumed (> 0 unless at the end of the text)
    int atom = -1;           ///< index into `atoms()` of the atom matched, -1 for one character
  };

  /// Uses `atoms` as given; entries of one character (one UTF-8 code point) or empty are ignored
  /// (their index then never appears in a Match). Duplicates are harmless.
  explicit Atomizer(std::vector<std::string> atoms);

  /// An atomizer over `candidateAtoms()`.
  static const Atomizer& candidates();

  /// The token starting at byte `offset` of `text` (`offset` < text.size()). The text should be
  /// valid UTF-8 (callers check it first); an invalid byte becomes a one-byte token.
  Match match(std::string_view text, std::size_t offset) const;

  /// All tokens of `text`, as views into it; concatenated they give `text` back.
  std::vector<std::string_view> atomize(std::string_view text) const;

  const std::vector<std::string>& atoms() const { return atoms_; }

 private:
  std::vector<std::string> atoms_;
  /// Indices of the multi-character atoms, bucketed by first byte, longest first.
  std::array<std::vector<int>, 256> buckets_;
};

}  // namespace deeptune::tokenizer
