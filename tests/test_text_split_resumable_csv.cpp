// Tests of the shared text split (data/text_split.hpp), the text-file check and the resumable
// CSV writer (data/resumable_csv.hpp): kept rows, refused headers, atomic rows.
#include <catch2/catch.hpp>
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
  ResumableCsv resumed(path, header);
  CHECK(resumed.kept() == 2);
  CHECK(resumed.has("a", "64"));
  CHECK(resumed.has("b, c", "64"));
  CHECK_FALSE(resumed.has("a", "128"));
  resumed.add({"a", "128", "3"});
  CHECK(readFileBytes(path, 1 << 16) == "benchmark,gsize,ms\na,64,1.5\n\"b, c\",64,2\na,128,3\n");
  // Another run's columns (other devices): refused, and the file is left as it was.
  CHECK_THROWS_WITH(ResumableCsv(path, {"benchmark", "gsize", "other"}),
                    Catch::Matchers::StartsWith(path + ":1:1: has other columns"));
  CHECK(readFileBytes(path, 1 << 16) == "benchmark,gsize,ms\na,64,1.5\n\"b, c\",64,2\na,128,3\n");
}
