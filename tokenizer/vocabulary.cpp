// Token vocabulary: derivation, JSON files, strict and skipping encoding, decoding.
#include "tokenizer/vocabulary.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include <unistd.h>
#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "data/text_check.hpp"
#include "tokenizer/vocab_error.hpp"

namespace deeptune::tokenizer {
namespace {

/// The code point of the (valid) UTF-8 character of `length` bytes at `p`.
char32_t decodeCodePoint(const char* p, std::size_t length) {
  const auto byte = [p](std::size_t i) { return static_cast<unsigned char>(p[i]); };
  switch (length) {
    case 2:
      return ((byte(0) & 0x1Fu) << 6) | (byte(1) & 0x3Fu);
    case 3:
      return ((byte(0) & 0x0Fu) << 12) | ((byte(1) & 0x3Fu) << 6) | (byte(2) & 0x3Fu);
    case 4:
      return ((byte(0) & 0x07u) << 18) | ((byte(1) & 0x3Fu) << 12) | ((byte(2) & 0x3Fu) << 6) |
             (byte(3) & 0x3Fu);
    default:
      return byte(0);
  }
}

/// `'x' (U+0078)` for a visible character, `U+0009` for a control character.
std::string describeCharacter(std::string_view character) {
  const char32_t code = decodeCodePoint(character.data(), character.size());
  char hex[16];
  std::snprintf(hex, sizeof hex, "U+%04X", static_cast<unsigned>(code));
  if (code < 0x20 || code == 0x7F || (code >= 0x80 && code < 0xA0)) return hex;
  return "'" + std::string(character) + "' (" + hex + ")";
}

/// `name:line:col` of byte `offset` (1-based; column counted in bytes, like data::TextFault).
std::string position(std::string_view text, std::size_t offset, const std::string& name) {
  int line = 1;
  std::size_t lineStart = 0;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  return name + ":" + std::to_string(line) + ":" + std::to_string(offset - lineStart + 1);
}

std::string oneLine(std::string message) {
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return message;
}

std::string quoted(const std::string& token) {
  return nlohmann::json(token).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

void requireText(std::string_view bytes, const std::string& name) {
  if (auto fault = data::findTextFault(bytes)) {
    throw VocabError(name + ":" + std::to_string(fault->line) + ":" +
                     std::to_string(fault->column) + ": not text: " + fault->what +
                     " (byte offset " + std::to_string(fault->offset) + ")");
  }
}

Vocabulary::Vocabulary(std::vector<std::string> tokens, const std::string& name)
    : tokens_(std::move(tokens)), atomizer_(tokens_) {
  if (tokens_.empty()) throw VocabError(name + ": empty vocabulary, expected at least one token");
  asciiIds_.fill(-1);
  for (int id = 0; id < static_cast<int>(tokens_.size()); ++id) {
    const std::string& token = tokens_[id];
    const std::string where = name + ": token " + std::to_string(id);
    if (token.empty()) throw VocabError(where + " is empty");
    if (auto fault = data::findTextFault(token)) {
      throw VocabError(where + " is not text: " + fault->what);
    }
    auto [found, inserted] = ids_.emplace(token, id);
    if (!inserted) {
      throw VocabError(where + " " + quoted(token) + " duplicates token " +
                       std::to_string(found->second));
    }
    if (token.size() == 1) asciiIds_[static_cast<unsigned char>(token[0])] = id;
  }
}

Vocabulary Vocabulary::derive(std::string_view corpus, const std::string& name) {
  requireText(corpus, name);
  if (corpus.empty()) throw VocabError(name + ": empty corpus, no tokens to derive");
  std::set<std::string_view> distinct;  // string_view orders by unsigned byte value
  for (std::string_view token : Atomizer::candidates().atomize(corpus)) distinct.insert(token);
  return Vocabulary(std::vector<std::string>(distinct.begin(), distinct.end()), name);
}

Vocabulary Vocabulary::deriveFromTexts(const std::vector<std::string_view>& texts,
                                       const std::string& name) {
  std::string corpus;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (i > 0) corpus += '\n';
    corpus += texts[i];
  }
  return derive(corpus, name);
}

Vocabulary Vocabulary::load(const std::string& path) {
  try {
    return fromJson(data::readFileBytes(path, data::kMaxVocabularyBytes), path);
  } catch (const data::DataError& e) {
    throw VocabError(e.what());
  }
}

Vocabulary Vocabulary::fromJson(std::string_view json, const std::string& name) {
  if (auto fault = data::findTextFault(json)) {
    throw VocabError(name + ":" + std::to_string(fault->line) + ":" +
                     std::to_string(fault->column) + ": not a vocabulary file: " + fault->what);
  }
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(json.begin(), json.end());
  } catch (const nlohmann::json::exception& e) {
    throw VocabError(oneLine(name + ": not a vocabulary file (invalid JSON): " + e.what()));
  }
  if (!parsed.is_array()) {
    throw VocabError(name + ": not a vocabulary file: expected a JSON array of strings, got " +
                     parsed.type_name());
  }
  std::vector<std::string> tokens;
  tokens.reserve(parsed.size());
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    if (!parsed[i].is_string()) {
      throw VocabError(name + ": token " + std::to_string(i) + " is a " + parsed[i].type_name() +
                       ", expected a string");
    }
    tokens.push_back(parsed[i].get<std::string>());
  }
  return Vocabulary(std::move(tokens), name);
}

std::string Vocabulary::toJson() const {
  std::string out = "[";
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    if (i > 0) out += ", ";
    out += nlohmann::json(tokens_[i]).dump();
  }
  return out + "]";
}

void Vocabulary::save(const std::string& path) const {
  try {
    data::writeFileAtomically(path, toJson());
  } catch (const data::OutputError& e) {
    throw VocabError(std::string("cannot write vocabulary file: ") + e.what());
  }
}

Encoding Vocabulary::encode(std::string_view text, UnknownPolicy policy,
                            const std::string& name) const {
  requireText(text, name);
  Encoding result;
  result.ids.reserve(text.size() / 2);
  for (std::size_t offset = 0; offset < text.size();) {
    const Atomizer::Match m = atomizer_.match(text, offset);
    int id = m.atom;
    if (id < 0) {  // one character
      const auto lead = static_cast<unsigned char>(text[offset]);
      if (lead < 0x80) {
        id = asciiIds_[lead];
      } else if (auto found = find(text.substr(offset, m.length))) {
        id = *found;
      }
    }
    if (id >= 0) {
      result.ids.push_back(id);
    } else if (policy == UnknownPolicy::kSkip) {
      ++result.skipped;
    } else {
      throw VocabError(position(text, offset, name) + ": character " +
                       describeCharacter(text.substr(offset, m.length)) +
                       " is not in the vocabulary (byte offset " + std::to_string(offset) + ")");
    }
    offset += m.length;
  }
  return result;
}

std::string Vocabulary::decode(const std::vector<int>& ids) const {
  std::string text;
  for (int id : ids) text += token(id);
  return text;
}

const std::string& Vocabulary::token(int id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size()) {
    throw VocabError("token id " + std::to_string(id) + " is outside the vocabulary (0.." +
                     std::to_string(tokens_.size() - 1) + ")");
  }
  return tokens_[id];
}

std::optional<int> Vocabulary::find(std::string_view token) const {
  auto found = ids_.find(std::string(token));
  if (found == ids_.end()) return std::nullopt;
  return found->second;
}

}  // namespace deeptune::tokenizer
