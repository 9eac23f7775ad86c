// Internal: the rewriter's precompiled OpenCL shim header: where it is, building it (no Clang
// types).
#pragma once

#include <string>

namespace deeptune::rewriter::internal {

/// Path of the precompiled shim header: the one built with the project (share/deeptune/pch),
/// else one built on first use (thread-safe) in the cache folder: $DEEPTUNE_CACHE_DIR, else
/// $XDG_CACHE_HOME/deeptune, else $HOME/.cache/deeptune, when private to the user; else a
/// private folder of this process (see clang_session.cpp).
/// Throws RewriteError (not about an input) if it cannot be built.
std::string shimPchPath();
/// Builds the shim PCH again (Clang could not load the cached one) and returns its path.
std::string rebuildShimPch();
/// Builds the shim PCH, its header and checksum into `dir` (the build's share/deeptune/pch,
/// installed with the project) and returns the PCH's path. Throws RewriteError (not about an
/// input).
std::string writeShimPch(const std::string& dir);
/// "opencl-shim-KEY": the name of the PCH's files (.h, .pch, .pch.xxh3) without suffix.
std::string shimPchFileStem();
/// The checksum a PCH's checksum file records of it.
std::string shimPchChecksum(const std::string& path);
/// Tests: the folder shimPchPath() looks into first instead of share/deeptune/pch ("": none).
void setInstalledPchDirectoryForTests(const std::string& dir);

}  // namespace deeptune::rewriter::internal
