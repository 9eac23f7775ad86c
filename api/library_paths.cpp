// Where this library (or the program it is linked into) lives: the file holding its code.
#include "api/library_paths.hpp"

#include "data/code_location.hpp"

namespace deeptune::api {

std::filesystem::path libraryDir() {
  return data::fileHoldingCode(reinterpret_cast<const void*>(&libraryDir)).parent_path();
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
