// Where this library lives, so installed data (bundled models, the CLI) is found beside it.
#pragma once

#include <filesystem>

namespace deeptune::api {

/// The folder of the shared library (or executable) holding this code, from the dynamic
/// loader; empty if it cannot be told. Installed: PREFIX/lib; in a build tree: BUILD/lib.
std::filesystem::path libraryDir();

/// The bundled models' folder beside it (PREFIX/share/deeptune/models).
std::filesystem::path bundledModelsDir();

/// The folder of the CLI beside it (PREFIX/bin).
std::filesystem::path installedBinDir();

}  // namespace deeptune::api
