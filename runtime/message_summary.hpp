// One line from a long message (a build log, an error text): its error lines, else all of it.
#pragma once

#include <cstddef>
#include <string>

namespace deeptune::runtime {

/// A message on one line: the first three lines containing "error" (any case; a build log's
/// errors) joined by " | ", else all non-empty lines so joined; tabs and CRs as spaces, each line
/// trimmed, cut to about `maxBytes` at a UTF-8 character boundary ("..." appended).
std::string summarizeMessage(const std::string& message, size_t maxBytes = 500);

}  // namespace deeptune::runtime
