// RFC 4180 CSV reader (quoted fields, doubled quotes, embedded newlines, CRLF/LF) and writer.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/data_error.hpp"

namespace deeptune::data {

/// Where a field starts in its file: 1-based line and byte column (its opening quote if quoted).
struct CsvPos {
  int line = 0;
  int column = 0;
};

/// A parsed CSV file: a header row and data rows that all have header.size() fields.
struct CsvTable {
  std::string source;                          ///< file name used in error messages
  std::vector<std::string> header;             ///< column names, unique (one may be "")
  int headerLine = 1;                          ///< 1-based line of the header row
  std::vector<std::vector<std::string>> rows;  ///< field values, quotes removed
  std::vector<int> rowLines;                   ///< 1-based line where each row starts
  std::vector<std::vector<CsvPos>> fieldPos;   ///< where each field of each row starts

  /// Index of the column called name; throws DataError (at the header line) if there is none.
  size_t column(const std::string& name) const;
  /// Index of the column called name, or nullopt.
  std::optional<size_t> findColumn(const std::string& name) const;

  /// DataError located at the start of field (row, col), naming the column in the message.
  DataError errorAt(size_t row, size_t col, const std::string& what) const;
  /// Field (row, col) as a decimal integer (surrounding blanks allowed); throws DataError.
  long long intAt(size_t row, size_t col) const;
  /// Field (row, col) as a finite decimal number (surrounding blanks allowed); throws DataError.
  double doubleAt(size_t row, size_t col) const;
};

/// Parses CSV text. Records end at LF, CRLF or a lone CR outside quotes; the last record may lack
/// one. Quoted fields keep their bytes verbatim (CRLF inside quotes stays CRLF). Blank lines are
/// skipped and a leading UTF-8 byte-order mark is ignored. Throws DataError naming
/// sourceName:line:col for: no header, a duplicated column name, a NUL byte or invalid UTF-8, an
/// unterminated quoted field, a quote inside an unquoted field, anything but a separator after a
/// closing quote, and a row whose field count differs from the header's.
CsvTable parseCsv(std::string_view text, const std::string& sourceName);

/// Reads (readFileBytes, at most kMaxCsvBytes) and parses the file at path (errors name path);
/// throws DataError if it cannot be read.
CsvTable readCsv(const std::string& path);

/// One CSV field: quoted (quotes doubled) iff it holds a comma, quote, CR or LF.
std::string csvField(std::string_view value);

/// One CSV record of csvField()s joined by commas, ending with "\n". A record of one empty field
/// is written as `""` so that a reader does not take it for a blank line.
std::string csvRow(const std::vector<std::string>& fields);

}  // namespace deeptune::data
