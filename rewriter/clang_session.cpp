// Builds Clang compiler instances for the rewriter passes and the cached shim PCH they share.
#include "rewriter/internal/clang_session.hpp"

#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/Support/MemoryBuffer.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <vector>

namespace deeptune::rewriter {
extern const char* const kOpenClShimText;  // rewriter/shim/opencl_shim.h, embedded at build time
}

namespace deeptune::rewriter::internal {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> baseArguments() {
  return {"-triple",
          "spir64-unknown-unknown",
          "-cl-std=CL1.2",
          "-isystem",
          DEEPTUNE_LIBCLC_INCLUDE_DIR,
          "-w",
          "-ferror-limit",
          "0"};
}

std::unique_ptr<clang::CompilerInstance> makeInstance(const std::vector<std::string>& arguments,
                                                      clang::DiagnosticConsumer& consumer,
                                                      ClangResources* resources = nullptr) {
  std::vector<const char*> argv;
  for (const auto& argument : arguments) argv.push_back(argument.c_str());
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> ids(new clang::DiagnosticIDs());
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options(new clang::DiagnosticOptions());
  clang::DiagnosticsEngine argumentDiagnostics(ids, options, &consumer, false);
  clang::CompilerInvocation::CreateFromArgs(*invocation, argv, argumentDiagnostics);
  auto instance =
      std::make_unique<clang::CompilerInstance>(std::make_shared<clang::PCHContainerOperations>(),
                                                resources ? &resources->moduleCache() : nullptr);
  instance->setInvocation(std::move(invocation));
  if (resources) instance->setFileManager(&resources->files());
  instance->getDiagnosticOpts().ShowCarets = false;  // also silences "N errors generated."
  instance->createDiagnostics(&consumer, /*ShouldOwnClient=*/false);
  return instance;
}

fs::path cacheDirectory() {
  if (const char* dir = std::getenv("DEEPTUNE_CACHE_DIR")) return dir;
  if (const char* dir = std::getenv("XDG_CACHE_HOME")) return fs::path(dir) / "deeptune";
  if (const char* dir = std::getenv("HOME")) return fs::path(dir) / ".cache" / "deeptune";
  return fs::temp_directory_path() / ("deeptune-" + std::to_string(::getuid()));
}

/// A key that changes when the shim, the Clang version or the installed libclc changes.
std::string pchKey() {
  std::string material = std::string(kOpenClShimText) + clang::getClangFullVersion();
  std::error_code ec;
  const fs::path clcHeader = fs::path(DEEPTUNE_LIBCLC_INCLUDE_DIR) / "clc" / "clc.h";
  const auto stamp = fs::last_write_time(clcHeader, ec);
  if (!ec) material += std::to_string(stamp.time_since_epoch().count());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016zx", std::hash<std::string>{}(material));
  return hex;
}

std::string buildShimPch() {
  const fs::path dir = cacheDirectory();
  const std::string key = pchKey();
  const fs::path header = dir / ("opencl-shim-" + key + ".h");
  const fs::path pch = dir / ("opencl-shim-" + key + ".pch");
  std::error_code ec;
  if (fs::exists(pch, ec) && fs::exists(header, ec)) return pch.string();
  fs::create_directories(dir, ec);
  const std::string suffix = ".tmp" + std::to_string(::getpid());
  // The header must stay on disk beside the PCH: Clang validates the PCH against it.
  if (!fs::exists(header, ec)) {
    std::ofstream out(header.string() + suffix, std::ios::binary);
    out << kOpenClShimText;
    out.close();
    if (!out) throw std::runtime_error("cannot write the shim header in " + dir.string());
    fs::rename(header.string() + suffix, header, ec);
  }
  ErrorCollector errors;
  std::vector<std::string> arguments = baseArguments();
  arguments.insert(arguments.end(),
                   {"-emit-pch", "-x", "cl-header", "-o", pch.string() + suffix, header.string()});
  auto instance = makeInstance(arguments, errors);
  clang::GeneratePCHAction action;
  if (!instance->ExecuteAction(action) || errors.firstError()) {
    fs::remove(pch.string() + suffix, ec);
    throw std::runtime_error("cannot build the OpenCL shim PCH in " + dir.string() +
                             (errors.firstError() ? ": " + errors.firstError()->message : ""));
  }
  fs::rename(pch.string() + suffix, pch, ec);
  if (ec) throw std::runtime_error("cannot store the shim PCH: " + ec.message());
  return pch.string();
}

}  // namespace

void ErrorCollector::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                      const clang::Diagnostic& info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);
  if (level < clang::DiagnosticsEngine::Error) return;
  if (level == clang::DiagnosticsEngine::Fatal) fatal_ = true;
  if (first_) return;
  ClangError error;
  llvm::SmallString<128> message;
  info.FormatDiagnostic(message);
  error.message = message.str().str();
  error.fatal = level == clang::DiagnosticsEngine::Fatal;
  if (info.hasSourceManager() && info.getLocation().isValid()) {
    const auto presumed = info.getSourceManager().getPresumedLoc(info.getLocation());
    if (presumed.isValid()) {
      error.file = presumed.getFilename();
      error.line = static_cast<int>(presumed.getLine());
      error.column = static_cast<int>(presumed.getColumn());
    }
  }
  first_ = std::move(error);
}

ClangResources::ClangResources()
    : files_(new clang::FileManager(clang::FileSystemOptions())),
      moduleCache_(new clang::InMemoryModuleCache()) {}

const std::string& shimPchPath() {
  static const std::string path = buildShimPch();
  return path;
}

std::unique_ptr<clang::CompilerInstance> makeCompilerInstance(std::string_view source,
                                                              const std::string& fileName,
                                                              ErrorCollector& errors,
                                                              ClangResources& resources) {
  std::vector<std::string> arguments = baseArguments();
  arguments.insert(arguments.end(), {"-x", "cl", "-include-pch", shimPchPath(), fileName});
  auto instance = makeInstance(arguments, errors, &resources);
  // The PCH's file name already changes with the shim, Clang and libclc (pchKey), so skip
  // re-validating its inputs (a stat of every libclc header per parse).
  instance->getPreprocessorOpts().DisablePCHOrModuleValidation =
      clang::DisableValidationForModuleKind::PCH;
  instance->getPreprocessorOpts().addRemappedFile(
      fileName,
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(source.data(), source.size()), fileName)
          .release());
  return instance;
}

}  // namespace deeptune::rewriter::internal
