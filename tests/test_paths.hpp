// Paths the tests read: the shared paper data, the project sources and the built CLI.
#pragma once

#include <cstdlib>
#include <string>

namespace deeptune::test {

/// The shared folder (../shared of the checkout); DEEPTUNE_SHARED overrides it.
inline std::string sharedDir() {
  const char* env = std::getenv("DEEPTUNE_SHARED");
  return env ? env : DEEPTUNE_SHARED_DIR;
}
inline std::string paperDataDir() { return sharedDir() + "/data/deeptune"; }
inline std::string conformanceDir() { return sharedDir() + "/conformance/rewriter"; }
inline std::string sourceDir() { return DEEPTUNE_SOURCE_DIR; }
inline std::string cliPath() { return DEEPTUNE_CLI; }
inline std::string binaryDir() { return DEEPTUNE_BINARY_DIR; }

}  // namespace deeptune::test
