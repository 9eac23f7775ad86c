// Where this library lives: dladdr on one of its own functions.
#include "api/library_paths.hpp"

#include <dlfcn.h>

namespace deeptune::api {

std::filesystem::path libraryDir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&libraryDir), &info) == 0 || info.dli_fname == nullptr) {
    return {};
  }
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::weakly_canonical(info.dli_fname, ec);
  return ec ? std::filesystem::path() : self.parent_path();
}

namespace {

std::filesystem::path besideLibrary(const char* relative) {
  const std::filesystem::path dir = libraryDir();
  return dir.empty() ? dir : (dir / relative).lexically_normal();
}

}  // namespace

std::filesystem::path bundledModelsDir() { return besideLibrary(DEEPTUNE_MODELS_FROM_LIBDIR); }

std::filesystem::path installedBinDir() { return besideLibrary(DEEPTUNE_BIN_FROM_LIBDIR); }

}  // namespace deeptune::api
