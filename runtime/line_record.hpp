// One-line records between processes: TAB-separated fields with \\, \t, \n and \r escaped.
#pragma once

#include <string>
#include <vector>

namespace deeptune::runtime {

/// Joins `fields` into one line (no '\n'): each field escaped, TAB between them.
std::string encodeRecord(const std::vector<std::string>& fields);

/// The inverse of encodeRecord(): the fields of one line (at least one, possibly empty).
std::vector<std::string> decodeRecord(const std::string& line);

}  // namespace deeptune::runtime
