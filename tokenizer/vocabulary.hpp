// Token vocabulary: derive from a corpus, load/save JSON, encode text to ids and decode back.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/atomizer.hpp"

namespace deeptune::tokenizer {

/// What `Vocabulary::encode` does with a character that is not in the vocabulary.
enum class UnknownPolicy {
  kStrict,  ///< throw VocabError naming the character and its position
  kSkip,    ///< leave it out and count it (prediction mode)
};

/// The ids of one text and how many characters were skipped as unknown.
struct Encoding {
  std::vector<int> ids;
  std::size_t skipped = 0;  ///< characters (code points) left out; always 0 under kStrict
};

/// Throws VocabError `name:line:col: not text: ...` if `bytes` holds a NUL byte or invalid UTF-8.
void requireText(std::string_view bytes, const std::string& name);

/// An ordered list of distinct tokens; a token's id is its index. Tokens of one character are
/// matched literally, longer ones by maximal munch (see Atomizer).
class Vocabulary {
 public:
  /// Takes `tokens` in index order. Throws VocabError naming `name` if the list is empty, or a
  /// token is empty, holds a NUL byte or appears twice.
  explicit Vocabulary(std::vector<std::string> tokens, const std::string& name = "<vocabulary>");

  /// Tokenizes `corpus` with all candidate atoms and keeps the distinct tokens, sorted by byte
  /// value. Throws VocabError naming `name` if the corpus is not text or is empty.
  static Vocabulary derive(std::string_view corpus, const std::string& name = "<corpus>");
  /// derive() of `texts` joined with "\n" (the paper's corpus: one kernel after another).
  static Vocabulary deriveFromTexts(const std::vector<std::string_view>& texts,
                                    const std::string& name = "<corpus>");

  /// Reads a JSON array of strings (index order). Throws VocabError naming `path` if the file
  /// cannot be read, is not such an array, or the tokens are invalid (see the constructor).
  static Vocabulary load(const std::string& path);
  /// Parses JSON text as `load` does; `name` is used in error messages.
  static Vocabulary fromJson(std::string_view json, const std::string& name);

  /// The JSON array of the tokens in index order, formatted like vocab-128.json
  /// (`["\n", " ", ...]`, no trailing newline).
  std::string toJson() const;
  /// Writes `toJson()` to `path` (temporary file + rename). Throws VocabError on I/O failure.
  void save(const std::string& path) const;

  /// Encodes `text` to ids. Throws VocabError naming `name` and the position when the text is
  /// not text (both policies) or, under kStrict, holds a character not in the vocabulary.
  Encoding encode(std::string_view text, UnknownPolicy policy = UnknownPolicy::kStrict,
                  const std::string& name = "<input>") const;
  /// Concatenates the tokens of `ids`. Throws VocabError for an id outside [0, size()).
  std::string decode(const std::vector<int>& ids) const;

  std::size_t size() const { return tokens_.size(); }
  const std::vector<std::string>& tokens() const { return tokens_; }
  /// The token of `id`; throws VocabError for an id outside [0, size()).
  const std::string& token(int id) const;
  /// The id of `token`, if it is in the vocabulary.
  std::optional<int> find(std::string_view token) const;

  bool operator==(const Vocabulary& other) const { return tokens_ == other.tokens_; }
  bool operator!=(const Vocabulary& other) const { return !(*this == other); }

 private:
  std::vector<std::string> tokens_;
  std::unordered_map<std::string, int> ids_;
  std::array<int, 128> asciiIds_;  ///< id of each one-byte token, -1 if absent
  Atomizer atomizer_;              ///< over tokens_: a matched atom's index is its id
};

}  // namespace deeptune::tokenizer
