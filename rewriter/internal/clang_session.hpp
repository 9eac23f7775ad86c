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
#include "rewriter/internal/shim_pch.hpp"

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
  /// Finds (or builds) the shim PCH and maps it into the module cache, where every compiler
  /// instance of this process, and of the workers it forks later, finds it without reading it;
  /// does nothing once it is there.
  void preloadShimPch();
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
