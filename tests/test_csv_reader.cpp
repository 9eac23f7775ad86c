// Tests of the RFC 4180 CSV reader and writer: values, line tracking and located errors.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "data/csv_reader.hpp"
#include "data/data_error.hpp"

using deeptune::data::csvField;
using deeptune::data::CsvPos;
using deeptune::data::csvRow;
using deeptune::data::CsvTable;
using deeptune::data::DataError;
using deeptune::data::parseCsv;
using deeptune::data::readCsv;

namespace {

/// The message of the DataError that parsing text throws ("" if none is thrown).
std::string parseError(const std::string& text) {
  try {
    parseCsv(text, "in.csv");
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("csv: plain fields, header and row lines", "[csv]") {
  const CsvTable t = parseCsv("a,b,c\n1,2,3\n4,,6\n", "t.csv");
  CHECK(t.source == "t.csv");
  CHECK(t.header == std::vector<std::string>{"a", "b", "c"});
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0] == std::vector<std::string>{"1", "2", "3"});
  CHECK(t.rows[1] == std::vector<std::string>{"4", "", "6"});
  CHECK(t.rowLines == std::vector<int>{2, 3});
  CHECK(t.column("c") == 2);
  CHECK_FALSE(t.findColumn("d").has_value());
}

TEST_CASE("csv: quoted commas, doubled quotes and embedded newlines", "[csv]") {
  const std::string text =
      ",name,src\n"
      "0,\"x, y\",\"__kernel void A() {\n  a = \"\"q\"\";\n}\n\"\n"
      "1,\"\",plain\n";
  const CsvTable t = parseCsv(text, "q.csv");
  CHECK(t.header == std::vector<std::string>{"", "name", "src"});
  CHECK(t.column("") == 0);
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0][1] == "x, y");
  CHECK(t.rows[0][2] == "__kernel void A() {\n  a = \"q\";\n}\n");
  CHECK(t.rows[1][1].empty());
  CHECK(t.rows[1][2] == "plain");
  // Row 0 spans lines 2..5; row 1 starts on line 6.
  CHECK(t.rowLines == std::vector<int>{2, 6});
  CHECK(t.fieldPos[1][2].line == 6);
  CHECK(t.fieldPos[1][2].column == 6);
  CHECK(t.fieldPos[0][2].column == 10);
}

TEST_CASE("csv: CRLF, lone CR, no final newline, blank lines, BOM", "[csv]") {
  SECTION("CRLF record ends; CRLF inside quotes is kept verbatim") {
    const CsvTable t = parseCsv("a,b\r\n1,\"x\r\ny\"\r\n2,z\r\n", "crlf.csv");
    REQUIRE(t.rows.size() == 2);
    CHECK(t.header == std::vector<std::string>{"a", "b"});
    CHECK(t.rows[0][1] == "x\r\ny");
    CHECK(t.rows[1] == std::vector<std::string>{"2", "z"});
    CHECK(t.rowLines == std::vector<int>{2, 4});
  }
  SECTION("lone CR ends a record") {
    const CsvTable t = parseCsv("a,b\r1,2\r", "cr.csv");
    REQUIRE(t.rows.size() == 1);
    CHECK(t.rows[0] == std::vector<std::string>{"1", "2"});
  }
  SECTION("last record without a line break, trailing empty field") {
    const CsvTable t = parseCsv("a,b\n1,", "n.csv");
    REQUIRE(t.rows.size() == 1);
    CHECK(t.rows[0] == std::vector<std::string>{"1", ""});
  }
  SECTION("blank lines are skipped and do not shift line numbers") {
    const CsvTable t = parseCsv("\na,b\n\n1,2\n\n", "b.csv");
    CHECK(t.headerLine == 2);
    REQUIRE(t.rows.size() == 1);
    CHECK(t.rowLines == std::vector<int>{4});
  }
  SECTION("a UTF-8 byte-order mark is not part of the first column name") {
    const CsvTable t = parseCsv(
        "\xEF\xBB\xBF"
        "a,b\n1,2\n",
        "bom.csv");
    CHECK(t.header[0] == "a");
  }
  SECTION("header only") {
    const CsvTable t = parseCsv("a,b\n", "h.csv");
    CHECK(t.rows.empty());
  }
}

TEST_CASE("csv: errors name file:line:col", "[csv][errors]") {
  // Each case: input, expected location, and a word of the expected message.
  struct Case {
    const char* name;
    std::string text;
    std::string where;
    std::string word;
  };
  const std::vector<Case> cases = {
      {"unterminated quote (at the opening quote)", "a,b\n1,\"abc\n2,3\n",
       "in.csv:2:3:", "unterminated"},
      {"quote in the middle of an unquoted field", "a,b\n1,ab\"c\n", "in.csv:2:5:", "quote"},
      {"garbage after a closing quote", "a,b\n1,\"ab\"x\n",
       "in.csv:2:7:", "after the closing quote"},
      {"too few fields (at the line end)", "a,b,c\n1,2\n", "in.csv:2:4:", "2 fields, expected 3"},
      {"too many fields (at the first extra)", "a,b\n1,2,3\n",
       "in.csv:2:5:", "3 fields, expected 2"},
      {"too few fields after CRLF lines", "a,b\r\n1,2\r\n3\r\n", "in.csv:3:2:", "1 field,"},
      {"location after a multi-line field", "a,b\n\"x\ny\",2,3\n", "in.csv:3:6:", "3 fields"},
      {"NUL byte", std::string("a,b\n1,\0\n", 8), "in.csv:2:3:", "NUL byte"},
      {"invalid UTF-8", "a,b\n1,\xff\n", "in.csv:2:3:", "0xff"},
      {"empty file", "", "in.csv:1:1:", "header"},
      {"blank file", "\n\n", "in.csv:3:1:", "header"},
      {"duplicate column name", "a,b,a\n1,2,3\n", "in.csv:1:5:", "duplicate column name 'a'"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const std::string message = parseError(c.text);
    CHECK(message.rfind(c.where, 0) == 0);
    CHECK(message.find(c.word) != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
}

TEST_CASE("csv: DataError carries its location", "[csv][errors]") {
  try {
    parseCsv("a\n\"x\n", "loc.csv");
    FAIL("no DataError");
  } catch (const DataError& e) {
    CHECK(e.file() == "loc.csv");
    CHECK(e.line() == 2);
    CHECK(e.column() == 1);
  }
}

TEST_CASE("csv: missing column names the file and the column", "[csv][errors]") {
  const CsvTable t = parseCsv("\nkernel,cf\nx,1\n", "cols.csv");
  try {
    t.column("oracle");
    FAIL("no DataError");
  } catch (const DataError& e) {
    const std::string m = e.what();
    CHECK(m.rfind("cols.csv:2:1:", 0) == 0);
    CHECK(m.find("'oracle'") != std::string::npos);
    CHECK(m.find("'kernel'") != std::string::npos);
  }
}

TEST_CASE("csv: typed field access", "[csv]") {
  const CsvTable t = parseCsv("n,x\n 42 ,\"2.5e3\"\nabc,nan\n-7,\n+3,1e999\n", "num.csv");
  CHECK(t.intAt(0, 0) == 42);
  CHECK(t.doubleAt(0, 1) == Approx(2500.0));
  CHECK(t.intAt(2, 0) == -7);
  CHECK(t.intAt(3, 0) == 3);
  CHECK_THROWS_WITH(t.intAt(1, 0),
                    Catch::StartsWith("num.csv:3:1: column 'n': expected an integer"));
  CHECK(t.doubleAt(0, 0) == 42.0);
  CHECK_THROWS_WITH(t.doubleAt(1, 1), Catch::StartsWith("num.csv:3:5:"));
  CHECK_THROWS_WITH(t.doubleAt(2, 1),
                    Catch::StartsWith("num.csv:4:4:") && Catch::Contains("empty"));
  CHECK_THROWS_WITH(t.doubleAt(3, 1), Catch::StartsWith("num.csv:5:4:"));
  CHECK_THROWS_AS(t.intAt(0, 1), DataError);  // "2.5e3" is not an integer
}

TEST_CASE("csv: unreadable file", "[csv][errors]") {
  const std::string path = "/nonexistent-deeptune-dir/x.csv";
  CHECK_THROWS_WITH(readCsv(path), Catch::StartsWith(path + ":1:1: cannot open file"));
  CHECK_THROWS_AS(readCsv("/"), DataError);  // a directory
}

TEST_CASE("csv writer: quotes only when needed", "[csv][writer]") {
  CHECK(csvField("plain") == "plain");
  CHECK(csvField("") == "");
  CHECK(csvField("a,b") == "\"a,b\"");
  CHECK(csvField("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csvField("two\nlines") == "\"two\nlines\"");
  CHECK(csvField("cr\r") == "\"cr\r\"");
  CHECK(csvRow({"a", "b,c", ""}) == "a,\"b,c\",\n");
  CHECK(csvRow({""}) == "\"\"\n");
}

TEST_CASE("csv writer output reads back unchanged", "[csv][writer]") {
  const std::vector<std::vector<std::string>> rows = {
      {"", "benchmark", "src"},
      {"0", "a-1-b-c", "__kernel void A(__global float* a) {\n  a[0] = \"x\", 1;\n}\n"},
      {"1", "", "\r\n,\"\""},
      {"2", " spaced ", "\xCE\xBB"},
  };
  std::string text;
  for (const auto& r : rows) text += csvRow(r);
  const CsvTable t = parseCsv(text, "w.csv");
  CHECK(t.header == rows[0]);
  REQUIRE(t.rows.size() == 3);
  for (size_t i = 0; i < 3; ++i) CHECK(t.rows[i] == rows[i + 1]);
}
