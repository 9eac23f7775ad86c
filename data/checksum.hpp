// The project's one checksum: 64-bit FNV-1a (model files, the PCH cache, data fingerprints).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace deeptune::data {

constexpr uint64_t kFnv1a64Basis = 1469598103934665603ull;

/// FNV-1a 64 of `bytes`, continuing from `hash` (the basis for a fresh checksum).
inline uint64_t fnv1a64(std::string_view bytes, uint64_t hash = kFnv1a64Basis) {
  for (unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

/// 16 lower-case hex digits.
inline std::string hex64(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace deeptune::data
