// XXH3-64 from libxxhash's header, compiled in (XXH_INLINE_ALL): no library to link.
#include "data/checksum.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace deeptune::data {

uint64_t xxh3_64(std::string_view bytes) {
  return static_cast<uint64_t>(XXH3_64bits(bytes.data(), bytes.size()));
}

}  // namespace deeptune::data
