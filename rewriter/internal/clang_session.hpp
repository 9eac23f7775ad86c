// Internal: one Clang compiler instance over an in-memory OpenCL source, with the shim PCH.
#pragma once

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Serialization/InMemoryModuleCache.h>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "data/source_options.hpp"

namespace deeptune::rewriter::internal {

/// The first error Clang reported while parsing, with its presumed position.
struct ClangError {
  std::string file;
  int line = 1;
  int column = 1;
  std::string message;
  bool fatal = false;
};

/// Swallows warnings and remembers the first error (warnings and errors never abort a parse),
/// the first error of a source that does not compile, and the names Clang found declared nowhere.
class ErrorCollector : public clang::DiagnosticConsumer {
 public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override;
  const std::optional<ClangError>& firstError() const { return first_; }
  /// The first error other than a name declared nowhere or a call of a helper the kernel lacks
  /// (see isToleratedError in clang_session.cpp): the source does not compile.
  const std::optional<ClangError>& firstIntolerableError() const { return firstIntolerable_; }
  bool sawFatal() const { return fatal_; }
  /// Names of "use of undeclared identifier", "unknown type name" and "implicit declaration of
  /// function" errors, sorted.
  const std::set<std::string>& undeclaredNames() const { return undeclared_; }

 private:
  std::optional<ClangError> first_;
  std::optional<ClangError> firstIntolerable_;
  bool fatal_ = false;
  std::set<std::string> undeclared_;
};

/// Path of the precompiled shim header: the one built with the project (share/deeptune/pch),
/// else one built on first use (thread-safe) in the cache folder: $DEEPTUNE_CACHE_DIR, else
/// $XDG_CACHE_HOME/deeptune, else $HOME/.cache/deeptune, when private to the user; else a
/// private folder of this process (see clang_session.cpp).
/// Throws std::runtime_error if it cannot be built.
std::string shimPchPath();
/// Builds the shim PCH again (Clang could not load the cached one) and returns its path.
std::string rebuildShimPch();
/// Builds the shim PCH, its header and checksum into `dir` (the build's share/deeptune/pch,
/// installed with the project) and returns the PCH's path. Throws std::runtime_error.
std::string writeShimPch(const std::string& dir);
/// "opencl-shim-KEY": the name of the PCH's files (.h, .pch, .pch.fnv1a64) without suffix.
std::string shimPchFileStem();
/// The checksum a PCH's checksum file records of it.
std::string shimPchChecksum(const std::string& path);
/// Tests: the folder shimPchPath() looks into first instead of share/deeptune/pch ("": none).
void setInstalledPchDirectoryForTests(const std::string& dir);

/// Clang state that parses of one thread share: file-system lookups (a stat cache: the PCH lists
/// ~300 libclc headers) and the loaded PCH buffer. Not thread-safe; one per Normalizer.
/// Included files are looked up once per input folder: edits to them during its life go unseen.
class ClangResources {
 public:
  ClangResources();
  /// The file manager for parsing `fileName`: it opens regular files only, and only inside the
  /// file's folder, `includeDirs`, libclc's headers and the shim cache (a new one when these
  /// folders change).
  clang::FileManager& filesFor(const std::string& fileName,
                               const std::vector<std::string>& includeDirs);
  clang::InMemoryModuleCache& moduleCache() { return *moduleCache_; }
  /// Drops the file lookups and the loaded PCH (after the PCH was rebuilt).
  void forgetLoadedFiles();

 private:
  llvm::IntrusiveRefCntPtr<clang::FileManager> files_;
  std::vector<std::string> folders_;
  llvm::IntrusiveRefCntPtr<clang::InMemoryModuleCache> moduleCache_;
};

/// A compiler instance parsing `source` as OpenCL C 1.2 under the name `fileName` (the name is
/// used for diagnostics and relative #include lookups) with the shim PCH force-included and the
/// host's -D/-I `options`.
std::unique_ptr<clang::CompilerInstance> makeCompilerInstance(
    std::string_view source, const std::string& fileName, ErrorCollector& errors,
    ClangResources& resources, const data::SourceOptions& options = {});

}  // namespace deeptune::rewriter::internal
