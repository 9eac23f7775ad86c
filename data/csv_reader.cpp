// RFC 4180 CSV reader and writer: a byte-level state machine that tracks line and column.
#include "data/csv_reader.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <system_error>

#include "data/file_io.hpp"
#include "data/text_check.hpp"

namespace deeptune::data {
namespace {

/// One record as parsed, with where each field starts and where the record ends.
struct Record {
  std::vector<std::string> fields;
  std::vector<CsvPos> positions;
  CsvPos end;  ///< position of the record's line break (or of the end of the text)
};

class CsvParser {
 public:
  CsvParser(std::string_view text, const std::string& source) : text_(text), source_(source) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") {  // UTF-8 byte-order mark
      pos_ = 3;
      lineStart_ = 3;
    }
  }

  /// Parses the next record into record; false at the end of the text.
  bool next(Record& record) {
    while (pos_ < text_.size() && isLineBreak(text_[pos_])) consumeLineBreak();  // blank lines
    if (pos_ >= text_.size()) return false;
    record.fields.clear();
    record.positions.clear();
    while (true) {
      record.positions.push_back(here());
      const bool quoted = pos_ < text_.size() && text_[pos_] == '"';
      record.fields.push_back(quoted ? quotedField() : plainField());
      if (pos_ >= text_.size()) {
        record.end = here();
        return true;
      }
      if (text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      record.end = here();
      consumeLineBreak();
      return true;
    }
  }

  CsvPos here() const { return {line_, static_cast<int>(pos_ - lineStart_ + 1)}; }

 private:
  static bool isLineBreak(char c) { return c == '\n' || c == '\r'; }

  /// Consumes LF, CRLF or a lone CR at pos_.
  void consumeLineBreak() {
    if (text_[pos_] == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') ++pos_;
    ++pos_;
    ++line_;
    lineStart_ = pos_;
  }

  [[noreturn]] void fail(CsvPos at, const std::string& what) const {
    throw DataError(source_, at.line, at.column, what);
  }

  std::string plainField() {
    const size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ',' || isLineBreak(c)) break;
      if (c == '"') {
        fail(here(),
             "quote inside an unquoted field (a field holding quotes must be quoted as a "
             "whole, with each quote doubled)");
      }
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  std::string quotedField() {
    const CsvPos open = here();
    ++pos_;  // the opening quote
    std::string value;
    while (true) {
      if (pos_ >= text_.size()) {
        fail(open, "unterminated quoted field: no closing quote before the end of the file");
      }
      const char c = text_[pos_];
      if (c == '"') {
        if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
          value += '"';
          pos_ += 2;
          continue;
        }
        ++pos_;  // the closing quote
        break;
      }
      if (isLineBreak(c)) {
        const size_t from = pos_;
        consumeLineBreak();
        value.append(text_.substr(from, pos_ - from));
        continue;
      }
      // Copy the run of ordinary bytes up to the next quote or line break at once.
      size_t end = pos_ + 1;
      while (end < text_.size() && text_[end] != '"' && !isLineBreak(text_[end])) ++end;
      value.append(text_.substr(pos_, end - pos_));
      pos_ = end;
    }
    if (pos_ < text_.size() && text_[pos_] != ',' && !isLineBreak(text_[pos_])) {
      fail(here(), "expected ',' or a line break after the closing quote of the field opened at " +
                       std::to_string(open.line) + ":" + std::to_string(open.column) + ", found " +
                       quoteValue(text_.substr(pos_, 1)));
    }
    return value;
  }

  std::string_view text_;
  const std::string& source_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t lineStart_ = 0;
};

std::string fieldCountMessage(size_t found, size_t expected, int headerLine) {
  return "row has " + std::to_string(found) + " field" + (found == 1 ? "" : "s") + ", expected " +
         std::to_string(expected) + " as in the header (line " + std::to_string(headerLine) + ")";
}

/// The field with surrounding blanks and one leading '+' removed (std::from_chars takes no '+').
std::string_view numberText(std::string_view value) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  if (value.size() > 1 && value.front() == '+' && value[1] != '-') value.remove_prefix(1);
  return value;
}

}  // namespace

std::optional<size_t> CsvTable::findColumn(const std::string& name) const {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  return std::nullopt;
}

size_t CsvTable::column(const std::string& name) const {
  if (auto index = findColumn(name)) return *index;
  std::string names;
  for (const auto& h : header) names += (names.empty() ? "" : ", ") + quoteValue(h);
  throw DataError(source, headerLine, 1,
                  "missing column " + quoteValue(name) + " (the header has " + names + ")");
}

DataError CsvTable::errorAt(size_t row, size_t col, const std::string& what) const {
  const CsvPos at = fieldPos.at(row).at(col);
  const std::string label = header.at(col).empty() ? "unnamed column " + std::to_string(col + 1)
                                                   : "column " + quoteValue(header[col]);
  return DataError(source, at.line, at.column, label + ": " + what);
}

long long CsvTable::intAt(size_t row, size_t col) const {
  const std::string& value = rows.at(row).at(col);
  const std::string_view text = numberText(value);
  if (text.empty()) throw errorAt(row, col, "expected an integer, found an empty field");
  long long result = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), result);
  if (ec == std::errc::result_out_of_range) {
    throw errorAt(row, col, "integer out of range: " + quoteValue(value));
  }
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw errorAt(row, col, "expected an integer, found " + quoteValue(value));
  }
  return result;
}

double CsvTable::doubleAt(size_t row, size_t col) const {
  const std::string& value = rows.at(row).at(col);
  const std::string_view text = numberText(value);
  if (text.empty()) throw errorAt(row, col, "expected a number, found an empty field");
  double result = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), result);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(result)) {
    throw errorAt(row, col, "expected a finite number, found " + quoteValue(value));
  }
  return result;
}

CsvTable parseCsv(std::string_view text, const std::string& sourceName) {
  if (auto fault = findTextFault(text)) {
    throw DataError(sourceName, fault->line, fault->column, "not a text file: " + fault->what);
  }
  CsvTable table;
  table.source = sourceName;
  CsvParser parser(text, sourceName);
  Record record;
  if (!parser.next(record)) {
    throw DataError(sourceName, parser.here().line, parser.here().column,
                    "empty file: expected a header row");
  }
  table.header = std::move(record.fields);
  table.headerLine = record.positions.front().line;
  for (size_t i = 0; i < table.header.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (table.header[i] == table.header[j]) {
        throw DataError(sourceName, record.positions[i].line, record.positions[i].column,
                        "duplicate column name " + quoteValue(table.header[i]) + " (also column " +
                            std::to_string(j + 1) + ")");
      }
    }
  }
  const size_t width = table.header.size();
  while (parser.next(record)) {
    if (record.fields.size() != width) {
      const CsvPos at = record.fields.size() > width ? record.positions[width] : record.end;
      throw DataError(sourceName, at.line, at.column,
                      fieldCountMessage(record.fields.size(), width, table.headerLine));
    }
    table.rowLines.push_back(record.positions.front().line);
    table.rows.push_back(std::move(record.fields));
    table.fieldPos.push_back(std::move(record.positions));
    record.fields = {};
    record.positions = {};
  }
  return table;
}

CsvTable readCsv(const std::string& path) {
  return parseCsv(readFileBytes(path, kMaxCsvBytes), path);
}

std::string csvField(std::string_view value) {
  if (value.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(value);
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string csvRow(const std::vector<std::string>& fields) {
  if (fields.size() == 1 && fields[0].empty()) return "\"\"\n";
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += csvField(fields[i]);
  }
  out += '\n';
  return out;
}

}  // namespace deeptune::data
