// The real-world corpus (tests/corpus/*): kernels in the style of PolyBench, SHOC, Parboil,
// Rodinia and the NVIDIA SDK, with the host's -D/-I, their expected text, and a compile check.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "data/source_options.hpp"
#include "rewriter/normalizer.hpp"
#include "rewriter/rewrite_error.hpp"
#include "tests/cli_runner.hpp"
#include "tests/rewrite_checks.hpp"
#include "tests/test_paths.hpp"

namespace fs = std::filesystem;
using deeptune::rewriter::Normalizer;
using deeptune::rewriter::RewriteError;
using deeptune::rewriter::RewriteNotes;

namespace {

std::vector<std::string> wordsOf(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

/// The case's `options` file as SourceOptions, -I folders relative to the case.
deeptune::data::SourceOptions caseOptions(const fs::path& dir) {
  const std::vector<std::string> words =
      wordsOf(deeptune::test::readWholeFile((dir / "options").string()));
  std::vector<std::string> defines;
  std::vector<std::string> includes;
  for (size_t i = 0; i + 1 < words.size(); i += 2) {
    (words[i] == "-D" ? defines : includes)
        .push_back(words[i] == "-D" ? words[i + 1] : (dir / words[i + 1]).string());
  }
  return deeptune::data::makeSourceOptions(defines, includes);
}

/// Declared names of the case that must not survive (generated-looking spellings such as `i`
/// or `c` can be new names and are not checked).
std::vector<std::string> declaredNames(const fs::path& dir) {
  std::vector<std::string> names;
  for (const std::string& name : wordsOf(deeptune::test::readWholeFile((dir / "names").string()))) {
    const bool generatedLike =
        name.size() <= 2 &&
        (name.find_first_not_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos);
    if (!generatedLike) names.push_back(name);
  }
  return names;
}

std::vector<fs::path> corpusCases() {
  std::vector<fs::path> cases;
  for (const auto& entry : fs::directory_iterator(deeptune::test::sourceDir() + "/tests/corpus")) {
    if (entry.is_directory()) cases.push_back(entry.path());
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

}  // namespace

TEST_CASE("corpus: with the host's -D/-I each kernel file gives exactly its expected text",
          "[rewriter][corpus]") {
  const Normalizer normalizer;
  const std::vector<fs::path> cases = corpusCases();
  REQUIRE(cases.size() >= 5);
  for (const fs::path& dir : cases) {
    INFO(dir.filename().string());
    const std::string file = (dir / "kernel.cl").string();
    std::string expected = deeptune::test::readWholeFile((dir / "expected.cl").string());
    if (!expected.empty() && expected.back() == '\n') expected.pop_back();
    RewriteNotes notes;
    const std::string out =
        normalizer.normalize(deeptune::test::readWholeFile(file), file, caseOptions(dir), &notes);
    CHECK(out == expected);
    CHECK(notes.undeclared.empty());
    CHECK(deeptune::test::survivingDeclaredNames(out, notes).empty());
    CHECK_FALSE(deeptune::test::hasSelfTypedef(out));
    const std::set<std::string> ids = deeptune::test::identifiersOutsideMembers(out);
    for (const std::string& name : declaredNames(dir)) {
      INFO(name);
      CHECK(ids.count(name) == 0);
    }
  }
}

TEST_CASE("corpus: every expected text compiles with Clang for OpenCL 1.2", "[rewriter][corpus]") {
  for (const fs::path& dir : corpusCases()) {
    INFO(dir.filename().string());
    const std::string command =
        "clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header "
        "-fsyntax-only '" +
        (dir / "expected.cl").string() + "' 2>&1";
    CHECK(std::system(command.c_str()) == 0);
  }
}

TEST_CASE("corpus: without the host's options, names are still renamed and the missing ones named",
          "[rewriter][corpus]") {
  const Normalizer normalizer;
  for (const fs::path& dir : corpusCases()) {
    INFO(dir.filename().string());
    const std::string file = (dir / "kernel.cl").string();
    const deeptune::data::SourceOptions options = caseOptions(dir);
    try {
      RewriteNotes notes;
      const std::string out =
          normalizer.normalize(deeptune::test::readWholeFile(file), file, {}, &notes);
      CHECK(options.includeDirs.empty());  // a header outside the folder cannot have been found
      std::set<std::string> defined;
      for (const std::string& define : options.defines)
        defined.insert(define.substr(0, define.find('=')));
      // Every name left undeclared is one the host defines (a name the shim guesses, such as
      // BLOCK_DIM, is declared without it).
      for (const std::string& name : notes.undeclared) CHECK(defined.count(name) == 1);
      if (dir.filename() != "nvsdk-transpose") CHECK_FALSE(notes.undeclared.empty());
      CHECK(deeptune::test::survivingDeclaredNames(out, notes).empty());
      const std::set<std::string> ids = deeptune::test::identifiersOutsideMembers(out);
      for (const std::string& name : declaredNames(dir)) {
        INFO(name);
        CHECK(ids.count(name) == 0);
      }
    } catch (const RewriteError& error) {
      CHECK_FALSE(options.includeDirs.empty());
      CHECK_THAT(error.what(), Catch::Contains("file not found"));
    }
  }
}
