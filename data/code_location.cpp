// Where a piece of code lives: dladdr's link map, or /proc/self/exe for the main program.
#include "data/code_location.hpp"

#include <dlfcn.h>
#include <link.h>

namespace deeptune::data {

std::filesystem::path fileHoldingCode(const void* address) {
  Dl_info info{};
  link_map* map = nullptr;
  if (dladdr1(address, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0 ||
      map == nullptr) {
    return {};
  }
  std::error_code ec;
  const std::filesystem::path file = map->l_name != nullptr && map->l_name[0] != '\0'
                                         ? std::filesystem::path(map->l_name)
                                         : std::filesystem::path("/proc/self/exe");
  std::filesystem::path canonical = std::filesystem::canonical(file, ec);
  return ec ? std::filesystem::path() : canonical;
}

}  // namespace deeptune::data
