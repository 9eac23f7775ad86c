// Tests of the vocabularies `vocab derive` builds from files or a CSV column, and of the text
// `tokenize` prints for an encoding (tokenizer/vocabulary_sources.hpp).
#include <catch2/catch.hpp>
#include <string>

#include "data/data_error.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"
#include "tokenizer/vocab_error.hpp"
#include "tokenizer/vocabulary_sources.hpp"

using namespace deeptune;

TEST_CASE("vocabulary sources: files, a CSV column, and the encoding's text", "[vocabulary]") {
  const test::ScratchDir dir("deeptune-vocabulary-sources");
  const std::string a = dir.file("a.cl", "int x;");
  const std::string b = dir.file("b.cl", "float y;");
  const tokenizer::Vocabulary fromFiles = tokenizer::vocabularyFromFiles({a, b});
  // The texts joined with '\n': "int x;\nfloat y;" has the atoms int, float and the characters.
  CHECK(fromFiles.tokens() ==
        tokenizer::Vocabulary::deriveFromTexts({"int x;", "float y;"}).tokens());

  const tokenizer::Vocabulary paper =
      tokenizer::vocabularyFromCsv(test::paperDataDir() + "/cgo17-amd.csv", "src");
  CHECK(paper.size() == 128);  // the paper's vocab-128.json
  CHECK_THROWS_AS(tokenizer::vocabularyFromCsv(test::paperDataDir() + "/cgo17-amd.csv", "nope"),
                  data::DataError);
  CHECK_THROWS_AS(tokenizer::vocabularyFromFiles({dir.file("bin.cl", std::string("a\0b", 3))}),
                  tokenizer::VocabError);

  tokenizer::Encoding encoding;
  encoding.ids = {3, 0, 12};
  encoding.skipped = 2;
  CHECK(tokenizer::encodingText(encoding, false) == "3 0 12");
  CHECK(tokenizer::encodingText(encoding, true) == "{\"ids\":[3,0,12],\"skipped\":2}");
}
