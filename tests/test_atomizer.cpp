// Tests of the atomizer: the 108 candidate atoms and maximal munch without word boundaries.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "tokenizer/atomizer.hpp"

using deeptune::tokenizer::Atomizer;
using deeptune::tokenizer::candidateAtoms;

namespace {

std::vector<std::string> atomize(const Atomizer& atomizer, const std::string& text) {
  std::vector<std::string> tokens;
  for (auto token : atomizer.atomize(text)) tokens.emplace_back(token);
  return tokens;
}

}  // namespace

TEST_CASE("candidate atoms: the 108 distinct multi-character strings of the spec", "[atomizer]") {
  const auto& atoms = candidateAtoms();
  CHECK(atoms.size() == 108);
  CHECK(std::set<std::string>(atoms.begin(), atoms.end()).size() == 108);
  for (const auto& atom : atoms) {
    INFO(atom);
    CHECK(atom.size() >= 2);
  }
  CHECK(atoms.front() == "  ");
  CHECK(atoms.back() == "write_only");
  const std::set<std::string> some = {"__builtin_astype", "get_global_id", "u32", "//", "wide"};
  for (const auto& atom : some) {
    CHECK(std::set<std::string>(atoms.begin(), atoms.end()).count(atom) == 1);
  }
}

TEST_CASE("maximal munch over the candidates, no word boundaries", "[atomizer]") {
  struct Case {
    std::string text;
    std::vector<std::string> tokens;
  };
  const std::vector<Case> cases = {
      {"dot", {"do", "t"}},
      {"double", {"double"}},
      {"doubles", {"double", "s"}},
      {"do", {"do"}},
      {"d", {"d"}},
      {"int", {"int"}},
      {"into", {"into"}},
      {"intx", {"int", "x"}},
      {"integer", {"int", "e", "g", "e", "r"}},
      {"__global", {"__global"}},
      {"global", {"global"}},
      {"_global", {"_", "global"}},
      {"get_global_id(0)", {"get_global_id", "(", "0", ")"}},
      {"get_global_size", {"get_global_size"}},
      {"get_global_idx", {"get_global_id", "x"}},
      {"constant", {"constant"}},
      {"const", {"const"}},
      {"consta", {"const", "a"}},
      {"   ", {"  ", " "}},
      {"    ", {"  ", "  "}},
      {"a /* b */", {"a", " ", "/*", " ", "b", " ", "*/"}},
      {"x//y", {"x", "//", "y"}},
      {"ifdef", {"ifdef"}},
      {"ifx", {"if", "x"}},
      {"image2d_t", {"image2d_t"}},
      {"image2d_", {"i", "m", "a", "g", "e", "2", "d", "_"}},
      {"\t\n", {"\t", "\n"}},
      {"é€", {"é", "€"}},
      {"", {}},
  };
  for (const auto& c : cases) {
    INFO("text: '" << c.text << "'");
    CHECK(atomize(Atomizer::candidates(), c.text) == c.tokens);
  }
}

TEST_CASE("atomize: tokens concatenate back to the text", "[atomizer]") {
  const std::string text =
      "__kernel void A(__global float* a, const int b) {\n  if (b > 0) a[0] = sqrt(a[1]);\n}";
  std::string joined;
  for (auto token : Atomizer::candidates().atomize(text)) joined += token;
  CHECK(joined == text);
}

TEST_CASE("custom atomizer: longest atom wins, single characters ignored", "[atomizer]") {
  const Atomizer atomizer({"ab", "x", "abc", "", "é", "ab"});
  CHECK(atomize(atomizer, "abcab") == std::vector<std::string>{"abc", "ab"});
  CHECK(atomize(atomizer, "aab") == std::vector<std::string>{"a", "ab"});
  const auto m = atomizer.match("abcd", 0);
  CHECK(m.length == 3);
  CHECK(m.atom == 2);
  const auto single = atomizer.match("xy", 0);
  CHECK(single.length == 1);
  CHECK(single.atom == -1);  // "x" is one character: never reported as an atom
  const auto wide = atomizer.match("é", 0);
  CHECK(wide.length == 2);
  CHECK(wide.atom == -1);
  // An atom longer than the rest of the text does not match.
  CHECK(atomize(atomizer, "a") == std::vector<std::string>{"a"});
}

TEST_CASE("utf8Length from the lead byte", "[atomizer]") {
  using deeptune::tokenizer::utf8Length;
  CHECK(utf8Length('a') == 1);
  CHECK(utf8Length(0xC3) == 2);
  CHECK(utf8Length(0xE2) == 3);
  CHECK(utf8Length(0xF0) == 4);
  CHECK(utf8Length(0x80) == 1);  // stray continuation byte
  CHECK(utf8Length(0xFF) == 1);
}
