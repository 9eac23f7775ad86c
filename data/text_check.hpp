// Text check: finds the first NUL byte or invalid UTF-8 sequence, to reject binary input.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace deeptune::data {

/// Where and why some bytes are not text.
struct TextFault {
  size_t offset;     ///< byte offset of the NUL byte or of the first byte of the bad sequence
  int line;          ///< 1-based; lines end at '\n'
  int column;        ///< 1-based, counted in bytes
  std::string what;  ///< short description, e.g. "NUL byte", "invalid UTF-8 byte 0xff"
};

/// The first NUL byte or invalid UTF-8 sequence in bytes (stray continuation byte, bytes
/// 0xc0/0xc1/0xf5..0xff, overlong form, UTF-16 surrogate, code point above U+10FFFF, sequence cut
/// short by another byte or by the end), or nullopt if bytes are NUL-free UTF-8. Never throws
/// (except std::bad_alloc).
std::optional<TextFault> findTextFault(std::string_view bytes);

/// Throws DataError `FILE:LINE:COL: not a text file (what)` at the first fault of `bytes`.
void requireTextFile(std::string_view bytes, const std::string& file);

}  // namespace deeptune::data
