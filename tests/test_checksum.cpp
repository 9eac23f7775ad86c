// The checksums are the algorithms they are named after: the published test vectors of FNV-1a 64
// and XXH3-64, and the non-standard checksum of model formats 2 and 3 kept apart.
#include <catch2/catch.hpp>

#include <string>

#include "data/checksum.hpp"

using deeptune::data::fnv1a64;
using deeptune::data::hex64;
using deeptune::data::legacy64;
using deeptune::data::xxh3_64;

TEST_CASE("fnv1a64 is FNV-1a 64: the reference test vectors", "[checksum]") {
  // Landon Curt Noll's FNV test suite (test_fnv.c), also in draft-eastlake-fnv.
  CHECK(fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(fnv1a64("foobar") == 0x85944171f73967e8ull);
  // Continuing from a hash is hashing the concatenation (the advisor and fingerprints chain).
  CHECK(fnv1a64("bar", fnv1a64("foo")) == fnv1a64("foobar"));
}

TEST_CASE("xxh3_64 is XXH3-64 with seed 0", "[checksum]") {
  // No bytes: xxHash's own sanity table (cli/xsum_sanity_check.c, XSUM_XXH3_testdata); "a" and
  // "abc": the values other implementations (Go's zeebo/xxh3, Rust ports) test against.
  CHECK(xxh3_64("") == 0x2D06800538D394C2ull);
  CHECK(xxh3_64("a") == 0xE6C632B61E964E1Full);
  CHECK(xxh3_64("abc") == 0x78AF5F94892F3950ull);
  CHECK(hex64(xxh3_64("")) == "2d06800538d394c2");  // as `xxhsum -H3` prints it
}

TEST_CASE("the checksum of model formats 2 and 3 is not FNV-1a", "[checksum]") {
  // Its basis is a digit short of FNV-1a's, so it differs from FNV-1a on every input; it is kept
  // only to verify those files, under its own name.
  for (const std::string text : {"", "a", "DEEPTUNE"}) {
    INFO(text);
    CHECK(legacy64(text) != fnv1a64(text));
  }
  CHECK(legacy64("") == 1469598103934665603ull);
}
