// Text check: a UTF-8 validator (Unicode Table 3-7) that also rejects NUL bytes.
#include "data/text_check.hpp"

#include <cstdio>

#include "data/data_error.hpp"

namespace deeptune::data {
namespace {

std::string hexByte(unsigned char byte) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", byte);
  return buf;
}

/// The problem with the sequence starting at bytes[i] (a non-ASCII byte), or "" if it is valid;
/// sets length to the sequence's length when valid.
std::string checkSequence(std::string_view bytes, size_t i, size_t& length) {
  const auto lead = static_cast<unsigned char>(bytes[i]);
  if (lead >= 0x80 && lead <= 0xBF) return "unexpected UTF-8 continuation byte " + hexByte(lead);
  if (lead == 0xC0 || lead == 0xC1 || lead >= 0xF5) return "invalid UTF-8 byte " + hexByte(lead);
  length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  // Allowed range of the second byte (Table 3-7); later bytes are always 0x80..0xBF.
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  const char* rangeProblem = "";
  if (lead == 0xE0) {
    lo = 0xA0;
    rangeProblem = "overlong UTF-8 sequence starting with byte ";
  } else if (lead == 0xED) {
    hi = 0x9F;
    rangeProblem = "UTF-16 surrogate encoded in UTF-8, starting with byte ";
  } else if (lead == 0xF0) {
    lo = 0x90;
    rangeProblem = "overlong UTF-8 sequence starting with byte ";
  } else if (lead == 0xF4) {
    hi = 0x8F;
    rangeProblem = "UTF-8 sequence above U+10FFFF, starting with byte ";
  }
  for (size_t k = 1; k < length; ++k) {
    if (i + k >= bytes.size()) {
      return "UTF-8 sequence starting with byte " + hexByte(lead) + " cut short by the end";
    }
    const auto b = static_cast<unsigned char>(bytes[i + k]);
    if (b < 0x80 || b > 0xBF) {
      return "truncated UTF-8 sequence starting with byte " + hexByte(lead) +
             " (followed by byte " + hexByte(b) + ")";
    }
    if (k == 1 && (b < lo || b > hi)) return rangeProblem + hexByte(lead);
  }
  return "";
}

}  // namespace

std::optional<TextFault> findTextFault(std::string_view bytes) {
  int line = 1;
  size_t lineStart = 0;
  size_t i = 0;
  while (i < bytes.size()) {
    const auto byte = static_cast<unsigned char>(bytes[i]);
    std::string problem;
    size_t length = 1;
    if (byte == 0) {
      problem = "NUL byte";
    } else if (byte >= 0x80) {
      problem = checkSequence(bytes, i, length);
    } else if (byte == '\n') {
      ++line;
      lineStart = i + 1;
    }
    if (!problem.empty()) {
      return TextFault{i, line, static_cast<int>(i - lineStart + 1), problem};
    }
    i += length;
  }
  return std::nullopt;
}

void requireTextFile(std::string_view bytes, const std::string& file) {
  if (const auto fault = findTextFault(bytes)) {
    throw DataError(file, fault->line, fault->column, "not a text file (" + fault->what + ")");
  }
}

}  // namespace deeptune::data
