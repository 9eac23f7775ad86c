// Tests of the text check: NUL bytes and each kind of invalid UTF-8, with their positions.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "data/csv_reader.hpp"
#include "data/file_io.hpp"
#include "data/text_check.hpp"
#include "tests/test_paths.hpp"

using deeptune::data::findTextFault;

TEST_CASE("text check: valid text has no fault", "[text]") {
  const std::vector<std::string> valid = {
      "",
      "__kernel void A() {}\n",
      "caf\xC3\xA9",              // U+00E9
      "\xE2\x82\xAC",             // U+20AC
      "\xED\x9F\xBF",             // U+D7FF, just below the surrogates
      "\xEE\x80\x80",             // U+E000, just above them
      "\xEF\xBF\xBF",             // U+FFFF
      "\xF0\x90\x80\x80",         // U+10000
      "\xF0\x9F\x98\x80 ok",      // U+1F600
      "\xF4\x8F\xBF\xBF",         // U+10FFFF, the last code point
      "tab\tcr\r\nbell\x07\x7f",  // control characters other than NUL are text
  };
  for (const auto& text : valid) {
    INFO(text);
    CHECK_FALSE(findTextFault(text).has_value());
  }
}

TEST_CASE("text check: faults with offset, line, column and description", "[text]") {
  struct Case {
    std::string bytes;
    size_t offset;
    int line, column;
    std::string what;
  };
  const std::vector<Case> cases = {
      {std::string("ab\0c", 4), 2, 1, 3, "NUL byte"},
      {std::string("\0", 1), 0, 1, 1, "NUL byte"},
      {"a\nb\xFF", 3, 2, 2, "invalid UTF-8 byte 0xff"},
      {"x\xFE", 1, 1, 2, "invalid UTF-8 byte 0xfe"},
      {"\xC0\xAF", 0, 1, 1, "invalid UTF-8 byte 0xc0"},  // overlong '/'
      {"\xC1\xBF", 0, 1, 1, "invalid UTF-8 byte 0xc1"},
      {"\xF5\x80\x80\x80", 0, 1, 1, "invalid UTF-8 byte 0xf5"},
      {"ok\x80", 2, 1, 3, "unexpected UTF-8 continuation byte 0x80"},
      {"\xC3\xA9\xBF", 2, 1, 3, "unexpected UTF-8 continuation byte 0xbf"},
      {"\xE0\x80\x80", 0, 1, 1, "overlong UTF-8 sequence starting with byte 0xe0"},
      {"\xE0\x9F\xBF", 0, 1, 1, "overlong UTF-8 sequence starting with byte 0xe0"},
      {"\xF0\x80\x80\x80", 0, 1, 1, "overlong UTF-8 sequence starting with byte 0xf0"},
      {"\xF0\x8F\xBF\xBF", 0, 1, 1, "overlong UTF-8 sequence starting with byte 0xf0"},
      {"\xED\xA0\x80", 0, 1, 1, "UTF-16 surrogate encoded in UTF-8, starting with byte 0xed"},
      {"\xED\xBF\xBF", 0, 1, 1, "UTF-16 surrogate encoded in UTF-8, starting with byte 0xed"},
      {"\xF4\x90\x80\x80", 0, 1, 1, "UTF-8 sequence above U+10FFFF, starting with byte 0xf4"},
      {"\xE2\x82", 0, 1, 1, "UTF-8 sequence starting with byte 0xe2 cut short by the end"},
      {"\xF0\x9F\x98", 0, 1, 1, "UTF-8 sequence starting with byte 0xf0 cut short by the end"},
      {"\xE2\x82"
       "A",
       0, 1, 1, "truncated UTF-8 sequence starting with byte 0xe2 (followed by byte 0x41)"},
      {"\xC3\n", 0, 1, 1,
       "truncated UTF-8 sequence starting with byte 0xc3 (followed by byte 0x0a)"},
      {"caf\xC3\xA9\n\n  \xE2(", 9, 3, 3,
       "truncated UTF-8 sequence starting with byte 0xe2 (followed by byte 0x28)"},
  };
  for (const auto& c : cases) {
    INFO("case with expected description: " << c.what);
    const auto fault = findTextFault(c.bytes);
    REQUIRE(fault.has_value());
    CHECK(fault->offset == c.offset);
    CHECK(fault->line == c.line);
    CHECK(fault->column == c.column);
    CHECK(fault->what == c.what);
  }
}

TEST_CASE("text check: the first of several faults is reported", "[text]") {
  const auto fault = findTextFault(std::string("a\xFF\0", 3));
  REQUIRE(fault.has_value());
  CHECK(fault->offset == 1);
}

TEST_CASE("text check: the paper's CSV files are text", "[text]") {
  for (const char* name : {"cgo17-amd.csv", "cgo17-nvidia.csv", "folds-amd.csv",
                           "pact-2014-runtimes.csv", "pact-2014-oracles.csv", "vocab-128.json"}) {
    INFO(name);
    const std::string bytes = deeptune::data::readFileBytes(
        deeptune::test::paperDataDir() + "/" + name, deeptune::data::kMaxCsvBytes);
    CHECK(bytes.size() > 100);
    CHECK_FALSE(findTextFault(bytes).has_value());
  }
}
