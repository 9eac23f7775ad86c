// Tests of Vocabulary: derivation (paper vocabulary, worked example), encoding modes, JSON files.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "data/csv_reader.hpp"
#include "tests/test_paths.hpp"
#include "tokenizer/sequence.hpp"
#include "tokenizer/vocab_error.hpp"
#include "tokenizer/vocabulary.hpp"

using Catch::Matchers::Contains;
using deeptune::tokenizer::Encoding;
using deeptune::tokenizer::UnknownPolicy;
using deeptune::tokenizer::VocabError;
using deeptune::tokenizer::Vocabulary;

namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// The 680 `src` values of cgo17-amd.csv joined with "\n".
const std::string& paperCorpus() {
  static const std::string corpus = [] {
    const auto table = deeptune::data::readCsv(deeptune::test::paperDataDir() + "/cgo17-amd.csv");
    const size_t src = table.column("src");
    std::string text;
    for (size_t row = 0; row < table.rows.size(); ++row) {
      if (row > 0) text += '\n';
      text += table.rows[row][src];
    }
    return text;
  }();
  return corpus;
}

/// 02-expected.cl without one trailing newline.
std::string memsetKernel() {
  std::string text = readText(deeptune::test::conformanceDir() + "/02-expected.cl");
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string tempPath(const std::string& stem) {
  return (std::filesystem::temp_directory_path() / stem).string();
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

}  // namespace

TEST_CASE("vocabulary derived from the 680 cgo17-amd srcs equals vocab-128.json", "[vocabulary]") {
  const auto table = deeptune::data::readCsv(deeptune::test::paperDataDir() + "/cgo17-amd.csv");
  REQUIRE(table.rows.size() == 680);
  const Vocabulary derived = Vocabulary::derive(paperCorpus(), "cgo17-amd.csv");
  const std::string expectedPath = deeptune::test::paperDataDir() + "/vocab-128.json";
  const Vocabulary expected = Vocabulary::load(expectedPath);
  CHECK(expected.size() == 128);
  CHECK(derived.size() == 128);
  CHECK(derived.tokens() == expected.tokens());
  // Same bytes as the shipped file, too.
  CHECK(derived.toJson() == readText(expectedPath));
}

TEST_CASE("deriveFromTexts joins the texts with newlines", "[vocabulary]") {
  const auto table = deeptune::data::readCsv(deeptune::test::paperDataDir() + "/cgo17-amd.csv");
  std::vector<std::string_view> sources;
  for (const auto& row : table.rows) sources.push_back(row[table.column("src")]);
  CHECK(Vocabulary::deriveFromTexts(sources, "cgo17-amd.csv").tokens() ==
        Vocabulary::load(deeptune::test::paperDataDir() + "/vocab-128.json").tokens());
  // "\n" joins two texts: a token of the corpus even when neither text has one.
  const Vocabulary joined = Vocabulary::deriveFromTexts({"ab", "cd"});
  CHECK(joined.tokens() == Vocabulary::derive("ab\ncd").tokens());
  CHECK(joined.tokens() != Vocabulary::derive("abcd").tokens());
  CHECK_THROWS_AS(Vocabulary::deriveFromTexts({"ok", std::string_view("\0", 1)}), VocabError);
}

TEST_CASE("worked example: the memset kernel (27 tokens, 53 ids)", "[vocabulary]") {
  const std::string kernel = memsetKernel();
  const Vocabulary vocabulary = Vocabulary::derive(kernel);
  CHECK(vocabulary.size() == 27);
  CHECK(vocabulary.token(14) == "__kernel");
  CHECK(vocabulary.token(1) == " ");
  CHECK(vocabulary.token(24) == "void");
  CHECK(vocabulary.token(10) == "A");
  const std::vector<int> expected = {14, 1,  24, 1,  10, 3,  13, 1,  18, 5, 1,  15, 6, 1,
                                     23, 1,  16, 6,  1,  22, 1,  17, 4,  1, 25, 0,  2, 19,
                                     1,  22, 1,  20, 1,  9,  1,  21, 3,  7, 4,  8,  0, 2,
                                     15, 11, 20, 12, 1,  9,  1,  16, 8,  0, 26};
  REQUIRE(expected.size() == 53);
  const Encoding encoding = vocabulary.encode(kernel, UnknownPolicy::kStrict);
  CHECK(encoding.ids == expected);
  CHECK(encoding.skipped == 0);
  CHECK(vocabulary.decode(encoding.ids) == kernel);
}

TEST_CASE("derive sorts tokens by byte value", "[vocabulary]") {
  const Vocabulary vocabulary = Vocabulary::derive("é z\nA  int");
  CHECK(vocabulary.tokens() == std::vector<std::string>{"\n", " ", "  ", "A", "int", "z", "é"});
  CHECK(vocabulary.find("int") == 4);
  CHECK(!vocabulary.find("i").has_value());
  CHECK_THROWS_AS(Vocabulary::derive(""), VocabError);
}

TEST_CASE("encode uses only the vocabulary's own atoms", "[vocabulary]") {
  // "do" and single letters, but not "double": "double" is spelled with "do".
  const Vocabulary vocabulary({"do", "u", "b", "l", "e", "t"});
  const Encoding encoding = vocabulary.encode("doublet");
  CHECK(encoding.ids == std::vector<int>{0, 1, 2, 3, 4, 5});
  // Longest entry wins; entries need not be candidates.
  const Vocabulary custom({"a", "ab", "abc", "c", "b"});
  CHECK(custom.encode("abcab").ids == std::vector<int>{2, 1});
  CHECK(custom.encode("cba").ids == std::vector<int>{3, 4, 0});
}

TEST_CASE("round trip encode -> decode is exact on the paper corpus", "[vocabulary]") {
  const Vocabulary vocabulary =
      Vocabulary::load(deeptune::test::paperDataDir() + "/vocab-128.json");
  const std::string& corpus = paperCorpus();
  const Encoding encoding = vocabulary.encode(corpus, UnknownPolicy::kStrict, "corpus");
  CHECK(encoding.skipped == 0);
  CHECK(vocabulary.decode(encoding.ids) == corpus);
  // The keywords and builtins are whole atoms: fewer ids than characters (the speed of encoding
  // is bench/'s business, not a test's).
  INFO("encoded " << corpus.size() << " bytes into " << encoding.ids.size() << " ids");
  CHECK(encoding.ids.size() < corpus.size() * 9 / 10);
  // Sub-strings round-trip too.
  const std::string piece = corpus.substr(1000, 5000);
  CHECK(vocabulary.decode(vocabulary.encode(piece).ids) == piece);
}

TEST_CASE("strict mode names the unknown character and its position", "[vocabulary]") {
  const Vocabulary vocabulary = Vocabulary::derive("ab\ncd");
  const std::string text = "ab\nc@d";
  CHECK_THROWS_WITH(
      vocabulary.encode(text, UnknownPolicy::kStrict, "k.cl"),
      Contains("k.cl:2:2") && Contains("'@'") && Contains("U+0040") && Contains("byte offset 4"));
  CHECK_THROWS_WITH(vocabulary.encode("a\tb", UnknownPolicy::kStrict, "k.cl"),
                    Contains("k.cl:1:2") && Contains("U+0009"));
  CHECK_THROWS_WITH(vocabulary.encode("aé", UnknownPolicy::kStrict, "k.cl"),
                    Contains("'é' (U+00E9)"));
  try {
    vocabulary.encode(text, UnknownPolicy::kStrict, "k.cl");
    FAIL("no VocabError");
  } catch (const VocabError& e) {
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
  }
}

TEST_CASE("skipping mode leaves unknown characters out and counts them", "[vocabulary]") {
  const Vocabulary vocabulary = Vocabulary::derive("ab\ncd");
  const Encoding encoding = vocabulary.encode("a@b€€\nxcd", UnknownPolicy::kSkip);
  CHECK(encoding.skipped == 4);  // '@', two '€' (one each, not per byte), 'x'
  CHECK(vocabulary.decode(encoding.ids) == "ab\ncd");
  const Encoding clean = vocabulary.encode("abcd", UnknownPolicy::kSkip);
  CHECK(clean.skipped == 0);
  CHECK(clean.ids.size() == 4);
}

TEST_CASE("non-text input is rejected in both modes", "[vocabulary]") {
  const Vocabulary vocabulary = Vocabulary::derive("abc");
  const std::string withNul("ab\0c", 4);
  const std::string invalidUtf8 = "ab\n\xff";
  const std::string truncatedUtf8 = "a\xc3";
  for (auto policy : {UnknownPolicy::kStrict, UnknownPolicy::kSkip}) {
    CHECK_THROWS_WITH(vocabulary.encode(withNul, policy, "bin.cl"),
                      Contains("bin.cl:1:3") && Contains("not text") && Contains("NUL"));
    CHECK_THROWS_WITH(vocabulary.encode(invalidUtf8, policy, "bin.cl"),
                      Contains("bin.cl:2:1") && Contains("not text"));
    CHECK_THROWS_AS(vocabulary.encode(truncatedUtf8, policy, "bin.cl"), VocabError);
  }
  CHECK_THROWS_WITH(Vocabulary::derive(withNul, "corpus.txt"), Contains("corpus.txt:1:3"));
  CHECK_THROWS_AS(Vocabulary::derive(invalidUtf8), VocabError);
}

TEST_CASE("decode rejects ids outside the vocabulary", "[vocabulary]") {
  const Vocabulary vocabulary = Vocabulary::derive("abc");
  CHECK(vocabulary.decode({2, 1, 0}) == "cba");
  CHECK(vocabulary.decode({}).empty());
  CHECK_THROWS_AS(vocabulary.decode({3}), VocabError);  // the pad value
  CHECK_THROWS_AS(vocabulary.decode({-1}), VocabError);
}

TEST_CASE("pre-truncation keeps the last N ids; paper padding pads in front", "[sequence]") {
  using deeptune::tokenizer::kDefaultSequenceLength;
  using deeptune::tokenizer::prePad;
  using deeptune::tokenizer::preTruncate;
  CHECK(kDefaultSequenceLength == 1024);
  const std::vector<int> ids = {1, 2, 3, 4, 5};
  CHECK(preTruncate(ids, 3) == std::vector<int>{3, 4, 5});
  CHECK(preTruncate(ids, 5) == ids);
  CHECK(preTruncate(ids, 9) == ids);
  CHECK(preTruncate(ids, 0).empty());
  std::vector<int> longer(1500);
  for (int i = 0; i < 1500; ++i) longer[i] = i;
  const auto kept = preTruncate(longer);
  REQUIRE(kept.size() == 1024);
  CHECK(kept.front() == 476);
  CHECK(kept.back() == 1499);
  CHECK(prePad(ids, 128, 8) == std::vector<int>{128, 128, 128, 1, 2, 3, 4, 5});
  CHECK(prePad(ids, 128, 2) == std::vector<int>{4, 5});
  const auto padded = prePad({7}, 27);
  REQUIRE(padded.size() == 1024);
  CHECK(padded.front() == 27);
  CHECK(padded.back() == 7);
}

TEST_CASE("JSON save -> load round trip", "[vocabulary]") {
  const Vocabulary vocabulary = Vocabulary::derive("__kernel void A() {\n  \"q\\\" é\t}");
  const std::string path = tempPath("deeptune-test-vocab-roundtrip.json");
  vocabulary.save(path);
  const Vocabulary loaded = Vocabulary::load(path);
  CHECK(loaded == vocabulary);
  CHECK(Vocabulary::fromJson(vocabulary.toJson(), "inline") == vocabulary);
  std::remove(path.c_str());
}

TEST_CASE("bad vocabulary files are rejected naming the file", "[vocabulary]") {
  struct Case {
    std::string json;
    std::string expect;
  };
  const std::vector<Case> cases = {
      {"", "invalid JSON"},
      {"[\"a\", ", "invalid JSON"},
      {"{\"a\": 1}", "expected a JSON array"},
      {"\"abc\"", "expected a JSON array"},
      {"[\"a\", 3]", "token 1 is a number"},
      {"[\"a\", null]", "token 1 is a null"},
      {"[\"a\", \"b\", \"a\"]", "duplicates token 0"},
      {"[\"a\", \"\"]", "token 1 is empty"},
      {"[\"a\\u0000\"]", "not text"},
      {"[]", "empty vocabulary"},
  };
  const std::string path = tempPath("deeptune-test-vocab-bad.json");
  for (const auto& c : cases) {
    INFO("json: " << c.json);
    writeText(path, c.json);
    CHECK_THROWS_WITH(Vocabulary::load(path), Contains(path) && Contains(c.expect));
  }
  writeText(path, "[\"a\",\n \"\xff\"]");
  CHECK_THROWS_WITH(Vocabulary::load(path), Contains(path + ":2:3") && Contains("0xff"));
  std::remove(path.c_str());
  CHECK_THROWS_WITH(Vocabulary::load("/nonexistent/vocab.json"),
                    Contains("/nonexistent/vocab.json") && Contains("cannot open file"));
  const std::string dir = std::filesystem::temp_directory_path().string();
  CHECK_THROWS_WITH(Vocabulary::load(dir), Contains("directory"));
  CHECK_THROWS_AS(Vocabulary(std::vector<std::string>{"x", "x"}), VocabError);
}
