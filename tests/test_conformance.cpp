// Rewriter conformance: the input/expected pairs of ../shared/conformance/rewriter, stage by stage.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "rewriter/normalizer.hpp"
#include "tests/test_paths.hpp"

namespace {

using deeptune::rewriter::Normalizer;

std::string readCase(const std::string& name) {
  const std::string path = deeptune::test::conformanceDir() + "/" + name;
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// Comparisons may ignore one trailing newline (conformance README).
std::string withoutTrailingNewline(std::string text) {
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace

TEST_CASE("full-pipeline conformance cases", "[rewriter][conformance]") {
  const Normalizer normalizer;
  for (const std::string number : {"01", "02", "03", "04"}) {
    SECTION("case " + number) {
      const std::string input = readCase(number + "-input.cl");
      const std::string expected = withoutTrailingNewline(readCase(number + "-expected.cl"));
      CHECK(normalizer.normalize(input, number + "-input.cl") == expected);
    }
  }
}

TEST_CASE("rename-only conformance cases", "[rewriter][conformance]") {
  const Normalizer normalizer;
  for (const std::string number : {"05", "06"}) {
    SECTION("case " + number) {
      const std::string input = readCase(number + "-input.cl");
      CHECK(withoutTrailingNewline(normalizer.renameIdentifiers(input, number + ".cl")) ==
            withoutTrailingNewline(readCase(number + "-expected.cl")));
    }
  }
}

TEST_CASE("preprocess-only conformance cases", "[rewriter][conformance]") {
  const Normalizer normalizer;
  for (const std::string number : {"09", "10"}) {
    SECTION("case " + number) {
      const std::string input = readCase(number + "-input.cl");
      CHECK(withoutTrailingNewline(normalizer.preprocess(input, number + ".cl")) ==
            withoutTrailingNewline(readCase(number + "-expected.cl")));
    }
  }
}

TEST_CASE("prototype-whitespace conformance case", "[rewriter][conformance]") {
  CHECK(withoutTrailingNewline(deeptune::rewriter::prototypeOnOneLine(readCase("12-input.cl"))) ==
        withoutTrailingNewline(readCase("12-expected.cl")));
}

TEST_CASE("a two-line result is rejected as no code", "[rewriter][conformance]") {
  const Normalizer normalizer;
  CHECK_THROWS_WITH(normalizer.normalize("__kernel void A() {\n}\n", "short.cl"),
                    Catch::Contains("no code"));
}
