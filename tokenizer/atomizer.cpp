// Hybrid greedy atomizer: the candidate atom list and maximal-munch matching by first byte.
#include "tokenizer/atomizer.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace deeptune::tokenizer {

namespace {

/// The candidate atoms, in candidateAtoms()'s order.
const char* const kCandidateAtoms[] = {
    "  ",
    "*/",
    "/*",
    "//",
    "__assert",
    "__attribute",
    "__builtin_astype",
    "__clc_fabs",
    "__clc_fma",
    "__constant",
    "__global",
    "__inline",
    "__kernel",
    "__local",
    "__private",
    "__read_only",
    "__read_write",
    "__write_only",
    "abs",
    "alignas",
    "alignof",
    "atomic_add",
    "auto",
    "barrier",
    "bool",
    "break",
    "case",
    "char",
    "clamp",
    "complex",
    "const",
    "constant",
    "continue",
    "default",
    "define",
    "defined",
    "do",
    "double",
    "elif",
    "else",
    "endif",
    "enum",
    "error",
    "event_t",
    "extern",
    "fabs",
    "false",
    "float",
    "for",
    "get_global_id",
    "get_global_size",
    "get_local_id",
    "get_local_size",
    "get_num_groups",
    "global",
    "goto",
    "half",
    "if",
    "ifdef",
    "ifndef",
    "image1d_array_t",
    "image1d_buffer_t",
    "image1d_t",
    "image2d_array_t",
    "image2d_t",
    "image3d_t",
    "imaginary",
    "include",
    "inline",
    "int",
    "into",
    "kernel",
    "line",
    "local",
    "long",
    "noreturn",
    "pragma",
    "private",
    "quad",
    "read_only",
    "read_write",
    "register",
    "restrict",
    "return",
    "sampler_t",
    "short",
    "shuffle",
    "signed",
    "size_t",
    "sizeof",
    "sqrt",
    "static",
    "struct",
    "switch",
    "true",
    "typedef",
    "u32",
    "uchar",
    "uint",
    "ulong",
    "undef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "wide",
    "write_only",
};

}  // namespace

const std::vector<std::string>& candidateAtoms() {
  static const std::vector<std::string> atoms(std::begin(kCandidateAtoms),
                                              std::end(kCandidateAtoms));
  return atoms;
}

std::size_t utf8Length(unsigned char lead) {
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  return 1;
}

Atomizer::Atomizer(std::vector<std::string> atoms) : atoms_(std::move(atoms)) {
  for (int i = 0; i < static_cast<int>(atoms_.size()); ++i) {
    const std::string& atom = atoms_[i];
    if (atom.empty() || utf8Length(static_cast<unsigned char>(atom[0])) >= atom.size()) {
      continue;  // one character: handled by the single-character fallback
    }
    buckets_[static_cast<unsigned char>(atom[0])].push_back(i);
  }
  for (auto& bucket : buckets_) {
    std::stable_sort(bucket.begin(), bucket.end(),
                     [this](int a, int b) { return atoms_[a].size() > atoms_[b].size(); });
  }
}

const Atomizer& Atomizer::candidates() {
  static const Atomizer atomizer(candidateAtoms());
  return atomizer;
}

Atomizer::Match Atomizer::match(std::string_view text, std::size_t offset) const {
  const std::size_t left = text.size() - offset;
  const char* here = text.data() + offset;
  for (int index : buckets_[static_cast<unsigned char>(*here)]) {
    const std::string& atom = atoms_[index];
    if (atom.size() <= left && std::memcmp(here, atom.data(), atom.size()) == 0) {
      return {atom.size(), index};
    }
  }
  return {std::min(utf8Length(static_cast<unsigned char>(*here)), left), -1};
}

std::vector<std::string_view> Atomizer::atomize(std::string_view text) const {
  std::vector<std::string_view> tokens;
  for (std::size_t offset = 0; offset < text.size();) {
    const Match m = match(text, offset);
    tokens.push_back(text.substr(offset, m.length));
    offset += m.length;
  }
  return tokens;
}

}  // namespace deeptune::tokenizer
