// Tests of the shared text split (data/text_split.hpp), the text-file check and the resumable
// CSV writer (data/resumable_csv.hpp): kept rows, refused headers, one writer, cut rows.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "data/resumable_csv.hpp"
#include "data/text_check.hpp"
#include "data/text_split.hpp"
#include "tests/scratch_dir.hpp"

using namespace deeptune::data;
using Strings = std::vector<std::string>;

TEST_CASE("splitText keeps or drops empty pieces", "[split]") {
  CHECK(splitText("a,,b", ',') == Strings{"a", "", "b"});
  CHECK(splitText("a,,b", ',', EmptyPieces::kDrop) == Strings{"a", "b"});
  CHECK(splitText("a,", ',') == Strings{"a", ""});
  CHECK(splitText(",", ',', EmptyPieces::kDrop).empty());
  CHECK(splitText("", ',').empty());
  CHECK(splitText("one", ';') == Strings{"one"});
  CHECK(splitText("k1;k2;", ';', EmptyPieces::kDrop) == Strings{"k1", "k2"});
}

TEST_CASE("requireTextFile names the file, line and column of binary input", "[text]") {
  CHECK_NOTHROW(requireTextFile("kernel void f() {}\n", "k.cl"));
  CHECK_THROWS_AS(requireTextFile(std::string("ab\ncd\0e", 7), "k.cl"), DataError);
  CHECK_THROWS_WITH(requireTextFile(std::string("ab\ncd\0e", 7), "k.cl"),
                    "k.cl:2:3: not a text file (NUL byte)");
}

TEST_CASE("ResumableCsv writes each row at once and resumes a file it wrote", "[csv]") {
  const deeptune::test::ScratchDir dir("deeptune-resumable-csv");
  const std::string path = (dir.path / "out.csv").string();
  const Strings header = {"benchmark", "gsize", "ms"};
  {
    ResumableCsv csv(path, header);
    CHECK(csv.kept() == 0);
    csv.add({"a", "64", "1.5"});
    CHECK(readFileBytes(path, 1 << 16) == "benchmark,gsize,ms\na,64,1.5\n");  // on disk now
    csv.add({"b, c", "64", "2"});
  }
  {
    ResumableCsv resumed(path, header);
    CHECK(resumed.kept() == 2);
    CHECK(resumed.has("a", "64"));
    CHECK(resumed.has("b, c", "64"));
    CHECK_FALSE(resumed.has("a", "128"));
    resumed.add({"a", "128", "3"});
    CHECK(resumed.has("a", "128"));
  }
  CHECK(readFileBytes(path, 1 << 16) == "benchmark,gsize,ms\na,64,1.5\n\"b, c\",64,2\na,128,3\n");
  // Another run's columns (other devices): refused, and the file is left as it was.
  CHECK_THROWS_WITH(ResumableCsv(path, {"benchmark", "gsize", "other"}),
                    Catch::Matchers::StartsWith(path + ":1:1: has other columns"));
  CHECK(readFileBytes(path, 1 << 16) == "benchmark,gsize,ms\na,64,1.5\n\"b, c\",64,2\na,128,3\n");
}

TEST_CASE("ResumableCsv: one writer at a time; another is refused and the file left as it was",
          "[csv]") {
  const deeptune::test::ScratchDir dir("deeptune-resumable-csv-lock");
  const std::string path = (dir.path / "out.csv").string();
  const std::string link = (dir.path / "link.csv").string();
  REQUIRE(::symlink(path.c_str(), link.c_str()) == 0);
  const Strings header = {"benchmark", "gsize", "ms"};
  {
    ResumableCsv first(path, header);
    first.add({"a", "64", "1.5"});
    const std::string before = readFileBytes(path, 1 << 16);
    // The same file by other spellings and through a link; another header too (not read).
    const std::string folder = dir.path.filename().string();
    for (const std::string& other : {path, (dir.path / "." / "out.csv").string(),
                                     (dir.path / ".." / folder / "out.csv").string(), link}) {
      INFO(other);
      CHECK_THROWS_AS(ResumableCsv(other, header), OutputError);
      CHECK_THROWS_WITH(ResumableCsv(other, {"x"}),
                        Catch::Matchers::StartsWith(other + ": another run is writing it"));
      CHECK(readFileBytes(path, 1 << 16) == before);
    }
    first.add({"b", "64", "2"});  // the first writer goes on
  }
  ResumableCsv resumed(link, header);  // free again once the first is gone
  CHECK(resumed.kept() == 2);
  resumed.add({"c", "64", "3"});
  CHECK(readFileBytes(path, 1 << 16) == "benchmark,gsize,ms\na,64,1.5\nb,64,2\nc,64,3\n");
  CHECK(std::filesystem::is_symlink(link));  // written through, never replaced
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path),
                      std::filesystem::directory_iterator()) == 2);  // no temporary left
}

TEST_CASE("ResumableCsv: a row cut by an interrupted write is cut off and written again", "[csv]") {
  const deeptune::test::ScratchDir dir("deeptune-resumable-csv-cut");
  const Strings header = {"benchmark", "gsize", "src"};
  const std::string whole = "benchmark,gsize,src\na,64,\"kernel void a() {\n}\"\n";
  struct Case {
    std::string tail, why;
  };
  const std::vector<Case> cases = {
      {"b,6", "cut after a few fields"},
      {"b,64,\"kernel void b() {\n  x", "cut inside a quoted field spanning lines"},
      {"b,64,", "whole fields but no line break"},
      {std::string(7, '\0'), "NUL bytes a crash left in the file"},
  };
  for (const Case& c : cases) {
    INFO(c.why);
    const std::string path = dir.file("cut.csv", whole + c.tail);
    ResumableCsv resumed(path, header);
    CHECK(resumed.kept() == 1);
    CHECK(resumed.droppedBytes() == c.tail.size());
    CHECK_FALSE(resumed.has("b", "64"));
    CHECK(readFileBytes(path, 1 << 16) == whole);  // cut at once: a readable CSV again
    resumed.add({"b", "64", ""});
    CHECK(readFileBytes(path, 1 << 16) == whole + "b,64,\n");
  }
  // Rows before the last that are not CSV: refused, and the file is left as it was.
  const std::string broken = "benchmark,gsize,src\na,6\"4,x\nb,64,";
  const std::string path = dir.file("broken.csv", broken);
  CHECK_THROWS_AS(ResumableCsv(path, header), DataError);
  CHECK(readFileBytes(path, 1 << 16) == broken);
}

TEST_CASE("ResumableCsv: an empty file is new; devices are streams", "[csv]") {
  const deeptune::test::ScratchDir dir("deeptune-resumable-csv-kinds");
  const std::string empty = dir.file("empty.csv", "");
  {
    ResumableCsv csv(empty, {"k", "v"});
    CHECK(csv.kept() == 0);
    csv.add({"a", "1"});
  }
  CHECK(readFileBytes(empty, 1 << 10) == "k,v\na,1\n");
  ResumableCsv null("/dev/null", {"k", "v"});
  CHECK_NOTHROW(null.add({"a", "1"}));
  CHECK_NOTHROW(ResumableCsv("/dev/null", {"k", "v"}));  // a stream is not locked
  const std::string dangling = (dir.path / "dangling.csv").string();
  REQUIRE(::symlink((dir.path / "missing" / "x.csv").c_str(), dangling.c_str()) == 0);
  CHECK_THROWS_AS(ResumableCsv(dangling, {"k", "v"}), OutputError);
  CHECK(std::filesystem::is_symlink(dangling));
}
