// The project's checksums: FNV-1a 64 (data fingerprints, cache keys, the PCH check) and XXH3-64
// (model files, verifiable with `xxhsum -H3`); and the non-standard one of model formats 2 and 3.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace deeptune::data {

/// FNV-1a 64's offset basis and prime (Fowler, Noll, Vo; draft-eastlake-fnv).
constexpr uint64_t kFnv1a64Basis = 14695981039346656037ull;
constexpr uint64_t kFnv1a64Prime = 1099511628211ull;

/// FNV-1a 64 of `bytes`, continuing from `hash` (the basis for a fresh checksum).
inline uint64_t fnv1a64(std::string_view bytes, uint64_t hash = kFnv1a64Basis) {
  for (unsigned char c : bytes) hash = (hash ^ c) * kFnv1a64Prime;
  return hash;
}

/// XXH3-64 of `bytes` with seed 0 (libxxhash's XXH3_64bits): what `xxhsum -H3` prints.
uint64_t xxh3_64(std::string_view bytes);

/// The checksum model file formats 2 and 3 recorded as "fnv1a64=": FNV-1a's steps from the basis
/// 1469598103934665603, a digit short of FNV-1a's, so no standard algorithm. Only for verifying
/// those older files; "legacy64" is its name wherever it must be named.
inline uint64_t legacy64(std::string_view bytes) { return fnv1a64(bytes, 1469598103934665603ull); }

/// 16 lower-case hex digits.
inline std::string hex64(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace deeptune::data
