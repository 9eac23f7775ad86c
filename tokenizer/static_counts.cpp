// Grewe et al.'s static counts of a kernel, estimated from its normalized OpenCL source's tokens.
#include "tokenizer/static_counts.hpp"

#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace deeptune::tokenizer {
namespace {

/// Identifiers, numbers and punctuators of C, without comments, strings and preprocessor lines.
std::vector<std::string> lex(std::string_view s) {
  static const char* const kPunctuators[] = {"<<=", ">>=", "->", "++", "--", "<<", ">>",
                                             "<=",  ">=",  "==", "!=", "&&", "||", "+=",
                                             "-=",  "*=",  "/=", "%=", "&=", "|=", "^="};
  std::vector<std::string> tokens;
  size_t i = 0;
  const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  bool lineStart = true;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      lineStart = true;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (lineStart && c == '#') {  // a directive: to the end of the line
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    lineStart = false;
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < s.size() && s[i] != c && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
      ++i;
    } else if (ident(c)) {
      const size_t start = i;
      // numbers take their exponent sign and fraction too (1.0e-3f is one token)
      const bool number = std::isdigit(static_cast<unsigned char>(c)) != 0;
      while (i < s.size() &&
             (ident(s[i]) || (number && (s[i] == '.' || ((s[i] == '-' || s[i] == '+') &&
                                                         (s[i - 1] == 'e' || s[i - 1] == 'E')))))) {
        ++i;
      }
      tokens.emplace_back(s.substr(start, i - start));
    } else if (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      const size_t start = i++;
      while (i < s.size() && (ident(s[i]) || s[i] == '.')) ++i;
      tokens.emplace_back(s.substr(start, i - start));
    } else {
      size_t length = 1;
      for (const char* p : kPunctuators) {
        const std::string_view punctuator(p);
        if (s.compare(i, punctuator.size(), punctuator) == 0) {
          length = punctuator.size();
          break;
        }
      }
      tokens.emplace_back(s.substr(i, length));
      i += length;
    }
  }
  return tokens;
}

bool isIdentifier(const std::string& t) {
  return !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_');
}

/// A builtin scalar or vector type name, or a qualifier that may precede a pointer's `*`.
bool isTypeName(const std::string& t) {
  static const std::set<std::string> names = {
      "void",     "char",   "uchar", "short",    "ushort",   "int",        "uint",
      "long",     "ulong",  "float", "double",   "half",     "bool",       "size_t",
      "unsigned", "signed", "const", "volatile", "restrict", "__restrict", "struct"};
  size_t end = t.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(t[end - 1]))) --end;
  return names.count(t.substr(0, end)) > 0;
}

const std::set<std::string>& arithmeticOperators() {
  static const std::set<std::string> ops = {"+",  "-",  "*",   "/",   "%",  "++", "--", "+=",
                                            "-=", "*=", "/=",  "%=",  "<<", ">>", "&",  "|",
                                            "^",  "~",  "<<=", ">>=", "&=", "|=", "^="};
  return ops;
}

const std::set<std::string>& logicalOperators() {
  static const std::set<std::string> ops = {"<", ">", "<=", ">=", "==", "!=", "&&", "||", "!"};
  return ops;
}

const std::set<std::string>& mathBuiltins() {
  static const std::set<std::string> names = {
      "sqrt",         "rsqrt",       "native_sqrt", "native_rsqrt", "exp",        "exp2",
      "native_exp",   "log",         "log2",        "native_log",   "pow",        "powr",
      "pown",         "sin",         "cos",         "tan",          "native_sin", "native_cos",
      "fabs",         "abs",         "mad",         "fma",          "mad24",      "mul24",
      "min",          "max",         "fmin",        "fmax",         "clamp",      "dot",
      "cross",        "length",      "normalize",   "distance",     "floor",      "ceil",
      "round",        "trunc",       "fmod",        "hypot",        "atan",       "atan2",
      "asin",         "acos",        "sinh",        "cosh",         "tanh",       "native_divide",
      "native_recip", "half_divide", "mix",         "step",         "smoothstep", "sign"};
  return names;
}

/// The tokens from `open` (a '[' or '(') to its matching close, exclusive; `end` receives the
/// index of the close (tokens.size() if unbalanced).
std::vector<std::string> bracketed(const std::vector<std::string>& tokens, size_t open,
                                   size_t& end) {
  const std::string& o = tokens[open];
  const std::string c = o == "[" ? "]" : ")";
  int depth = 0;
  for (size_t i = open; i < tokens.size(); ++i) {
    if (tokens[i] == o) ++depth;
    if (tokens[i] == c && --depth == 0) {
      end = i;
      return {tokens.begin() + static_cast<std::ptrdiff_t>(open) + 1,
              tokens.begin() + static_cast<std::ptrdiff_t>(i)};
    }
  }
  end = tokens.size();
  return {};
}

}  // namespace

StaticCounts staticCounts(std::string_view source) {
  const std::vector<std::string> tokens = lex(source);
  StaticCounts counts;
  std::set<std::string> global, local, threadIds;

  // Declarations: after an address-space qualifier, the first identifier followed by , ) = ; [
  // within a few tokens is a pointer or array of that space.
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    std::set<std::string>* space = nullptr;
    if (t == "__global" || t == "global" || t == "__constant" || t == "constant") space = &global;
    if (t == "__local" || t == "local") space = &local;
    if (space == nullptr) continue;
    for (size_t j = i + 1; j < tokens.size() && j <= i + 8; ++j) {
      if (tokens[j] == ";" || tokens[j] == "{") break;
      if (!isIdentifier(tokens[j]) || j + 1 >= tokens.size()) continue;
      const std::string& next = tokens[j + 1];
      if (next == "," || next == ")" || next == "=" || next == ";" || next == "[") {
        space->insert(tokens[j]);
        break;
      }
    }
  }
  // Thread ids: X = ... get_global_id(0) / get_local_id(0) ... ; without a multiplication.
  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    if (!isIdentifier(tokens[i]) || tokens[i + 1] != "=") continue;
    bool id = false, multiplied = false;
    for (size_t j = i + 2; j < tokens.size() && tokens[j] != ";"; ++j) {
      if ((tokens[j] == "get_global_id" || tokens[j] == "get_local_id") && j + 3 < tokens.size() &&
          tokens[j + 2] == "0") {
        id = true;
      }
      if (tokens[j] == "*") multiplied = true;
      if (threadIds.count(tokens[j]) > 0) id = true;
    }
    if (id && !multiplied) threadIds.insert(tokens[i]);
  }

  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    const bool call = i + 1 < tokens.size() && tokens[i + 1] == "(";
    const bool declarator = t == "*" && i > 0 && isTypeName(tokens[i - 1]);
    if (arithmeticOperators().count(t) > 0 && !declarator) ++counts.comp;
    if (logicalOperators().count(t) > 0) ++counts.rational;
    if (call && mathBuiltins().count(t) > 0) ++counts.comp;
    if (call && (t.rfind("atomic_", 0) == 0 || t.rfind("atom_", 0) == 0)) ++counts.atomic;
    if (call && (t.rfind("vload", 0) == 0 || t.rfind("vstore", 0) == 0)) ++counts.mem;
    const bool subscript = i + 1 < tokens.size() && tokens[i + 1] == "[";
    // a subscript in a declaration (`float b[64]`) is not an access
    if (!subscript || !isIdentifier(t) || (i > 0 && isTypeName(tokens[i - 1]))) continue;
    if (local.count(t) > 0) {
      ++counts.localmem;
    } else if (global.count(t) > 0) {
      ++counts.mem;
      size_t end = 0;
      const std::vector<std::string> index = bracketed(tokens, i + 1, end);
      bool id = false, multiplied = false;
      for (size_t j = 0; j < index.size(); ++j) {
        if (threadIds.count(index[j]) > 0) id = true;
        if ((index[j] == "get_global_id" || index[j] == "get_local_id") && j + 2 < index.size() &&
            index[j + 2] == "0") {
          id = true;
        }
        if (index[j] == "*") multiplied = true;
      }
      if (id && !multiplied) ++counts.coalesced;
    }
  }
  return counts;
}

std::vector<float> staticCountValues(const StaticCounts& counts) {
  return {static_cast<float>(counts.comp),      static_cast<float>(counts.rational),
          static_cast<float>(counts.mem),       static_cast<float>(counts.localmem),
          static_cast<float>(counts.coalesced), static_cast<float>(counts.atomic)};
}

}  // namespace deeptune::tokenizer
