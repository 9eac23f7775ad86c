// Builds Clang compiler instances for the rewriter passes and the cached shim PCH they share.
#include "rewriter/internal/clang_session.hpp"

#include <clang/Basic/DiagnosticSema.h>
#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "data/checksum.hpp"
#include "data/code_location.hpp"
#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "rewriter/rewrite_error.hpp"

namespace deeptune::rewriter {
extern const char* const kOpenClShimText;  // rewriter/shim/opencl_shim.h, embedded at build time
}

namespace deeptune::rewriter::internal {
namespace {

namespace fs = std::filesystem;

/// The arguments of every parse and of the PCH. No system or compiler include folder: an
/// `#include <...>` of a kernel is looked up in its -I folders only, never in /usr/include.
std::vector<std::string> baseArguments() {
  return {"-triple",       "spir64-unknown-unknown",
          "-cl-std=CL1.2", "-nostdsysteminc",
          "-nobuiltininc", "-w",
          "-ferror-limit", "0"};
}

/// The PCH's arguments: libclc's headers, which the shim includes, are found in their folder
/// (Debian's /usr/include). Kernels are parsed without that folder: the PCH holds libclc.
std::vector<std::string> pchArguments() {
  std::vector<std::string> arguments = baseArguments();
  arguments.insert(arguments.end(), {"-isystem", DEEPTUNE_LIBCLC_INCLUDE_DIR});
  return arguments;
}

std::unique_ptr<clang::CompilerInstance> makeInstance(
    const std::vector<std::string>& arguments, clang::DiagnosticConsumer& consumer,
    clang::FileManager* files = nullptr, clang::InMemoryModuleCache* modules = nullptr) {
  std::vector<const char*> argv;
  for (const auto& argument : arguments) argv.push_back(argument.c_str());
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> ids(new clang::DiagnosticIDs());
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options(new clang::DiagnosticOptions());
  clang::DiagnosticsEngine argumentDiagnostics(ids, options, &consumer, false);
  clang::CompilerInvocation::CreateFromArgs(*invocation, argv, argumentDiagnostics);
  auto instance = std::make_unique<clang::CompilerInstance>(
      std::make_shared<clang::PCHContainerOperations>(), modules);
  instance->setInvocation(std::move(invocation));
  if (files != nullptr) instance->setFileManager(files);
  instance->getDiagnosticOpts().ShowCarets = false;  // also silences "N errors generated."
  instance->createDiagnostics(&consumer, /*ShouldOwnClient=*/false);
  return instance;
}

/// The user's cache folder for the shim PCH ($DEEPTUNE_CACHE_DIR, $XDG_CACHE_HOME/deeptune,
/// ~/.cache/deeptune), or "" without any of these variables.
fs::path userCacheDirectory() {
  if (const char* dir = std::getenv("DEEPTUNE_CACHE_DIR"); dir != nullptr && *dir != '\0') {
    return fs::path(dir);
  }
  if (const char* dir = std::getenv("XDG_CACHE_HOME"); dir != nullptr && *dir != '\0') {
    return fs::path(dir) / "deeptune";
  }
  if (const char* dir = std::getenv("HOME"); dir != nullptr && *dir != '\0') {
    return fs::path(dir) / ".cache" / "deeptune";
  }
  return {};
}

/// Whether `dir` is a real folder (not a link) owned by this user that no one else may write.
bool isPrivateDirectory(const fs::path& dir) {
  struct stat info {};
  return ::lstat(dir.c_str(), &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == ::getuid() &&
         (info.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

/// A private folder of this process (mkdtemp, created on first use), removed at exit: where the
/// PCH goes when the user's cache folder cannot be trusted (someone else created it or can
/// write it: a shared /tmp, no HOME) or holds something that is not ours.
fs::path processCacheDirectory() {
  static fs::path dir;
  if (dir.empty()) {
    std::string pattern = (fs::temp_directory_path() / "deeptune-pch-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw RewriteError("cannot create a private folder for the shim PCH in " +
                         fs::temp_directory_path().string());
    }
    dir = pattern;
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(dir, ec);
    });
  }
  return dir;
}

/// XXH3-64 of a regular file's bytes (every process checks the 4.4 MB PCH before using it), ""
/// if unreadable. The file is mapped, not copied: hashing a copy took 1-2 ms of every start-up.
std::string fileChecksum(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || !fs::is_regular_file(path, ec) || size > (std::uintmax_t{1} << 30)) return "";
  auto buffer = llvm::MemoryBuffer::getFile(path.string(), /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) return "";
  const llvm::StringRef bytes = (*buffer)->getBuffer();
  return data::hex64(data::xxh3_64(std::string_view(bytes.data(), bytes.size())));
}

/// Whether the cached shim header and PCH are whole: the header holds the shim's text and the PCH
/// the bytes its checksum file recorded when it was built (a truncated or corrupt PCH, e.g. from a
/// full disk, is rebuilt instead of failing every later run).
bool cachedPchIsIntact(const fs::path& header, const fs::path& pch, const fs::path& sum) {
  try {
    if (data::readFileBytes(header.string(), size_t{1} << 20) != kOpenClShimText) return false;
    const std::string recorded = data::readFileBytes(sum.string(), 64);
    return !recorded.empty() && recorded == fileChecksum(pch);
  } catch (const data::DataError&) {
    return false;
  }
}

/// A key that changes when the shim, the Clang version, the parse arguments or the installed
/// libclc changes.
std::string pchKey() {
  std::string material = std::string(kOpenClShimText) + clang::getClangFullVersion();
  for (const std::string& argument : pchArguments()) material += '\0' + argument;
  std::error_code ec;
  const fs::path clcHeader = fs::path(DEEPTUNE_LIBCLC_INCLUDE_DIR) / "clc" / "clc.h";
  const auto stamp = fs::last_write_time(clcHeader, ec);
  if (!ec) material += std::to_string(stamp.time_since_epoch().count());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016zx", std::hash<std::string>{}(material));
  return hex;
}

/// Writes a cache file atomically (data::writeFileAtomically: a new file renamed over `path`).
/// Refuses (RewriteError) when `path` exists and is not a regular file: a link, a FIFO or a
/// device planted there is neither followed nor replaced.
void writeCacheFile(const fs::path& path, std::string_view content) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    throw RewriteError(path.string() + " is not a regular file; not replacing it");
  }
  try {
    data::writeFileAtomically(path.string(), content);
  } catch (const data::OutputError& error) {
    throw RewriteError(error.what());
  }
}

/// Builds the shim PCH in `dir` (unless an intact one is there, or `rebuild`) and returns its
/// path. Throws RewriteError (not about an input) naming the file that could not be built or
/// written.
std::string buildShimPchIn(const fs::path& dir, bool rebuild) {
  const std::string stem = shimPchFileStem();
  const fs::path header = dir / (stem + ".h");
  const fs::path pch = dir / (stem + ".pch");
  const fs::path sum = dir / (stem + ".pch.xxh3");
  if (!rebuild && cachedPchIsIntact(header, pch, sum)) return pch.string();
  struct stat info {};
  if (::lstat(pch.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    throw RewriteError(pch.string() + " is not a regular file; not replacing it");
  }
  // The header must stay on disk beside the PCH: Clang validates the PCH against it.
  writeCacheFile(header, kOpenClShimText);
  const std::string temporary = pch.string() + ".tmp" + std::to_string(::getpid());
  ErrorCollector errors;
  std::vector<std::string> arguments = pchArguments();
  arguments.insert(arguments.end(),
                   {"-emit-pch", "-x", "cl-header", "-o", temporary, header.string()});
  auto instance = makeInstance(arguments, errors);
  clang::GeneratePCHAction action;
  std::error_code ec;
  if (!instance->ExecuteAction(action) || errors.firstError()) {
    fs::remove(temporary, ec);
    throw RewriteError("cannot build the OpenCL shim PCH " + pch.string() +
                       (errors.firstError() ? ": " + errors.firstError()->message : ""));
  }
  fs::rename(temporary, pch, ec);
  if (ec) throw RewriteError("cannot store the shim PCH " + pch.string() + ": " + ec.message());
  writeCacheFile(sum, fileChecksum(pch));
  return pch.string();
}

std::optional<fs::path>& installedPchDirectoryOverride() {
  static std::optional<fs::path> dir;
  return dir;
}

/// The folder of PCHs built with the project (share/deeptune/pch beside the library or program
/// holding this code, in the build tree and in the installed tree), or "" if there is none.
fs::path installedPchDirectory() {
  if (installedPchDirectoryOverride()) return *installedPchDirectoryOverride();
  const fs::path here =
      data::fileHoldingCode(reinterpret_cast<const void*>(&installedPchDirectory)).parent_path();
  if (here.empty()) return {};
  std::error_code ec;
  for (const fs::path& candidate :
       {here / DEEPTUNE_PCH_FROM_LIBDIR, here / ".." / "share" / "deeptune" / "pch"}) {
    if (fs::is_directory(candidate, ec)) return candidate;
  }
  return {};
}

/// The shim PCH: the one built with the project when it is intact and of this key (no process
/// builds it then), else the one in the user's cache folder, or, when that folder cannot hold
/// it (not private, or a cache file there is not ours to replace), in a private folder of this
/// process. `rebuild`: Clang could not load the one found; build it in a cache folder.
std::string buildShimPch(bool rebuild) {
  if (!rebuild) {
    const fs::path installed = installedPchDirectory();
    const std::string stem = shimPchFileStem();
    const fs::path pch = installed / (stem + ".pch");
    if (!installed.empty() &&
        cachedPchIsIntact(installed / (stem + ".h"), pch, installed / (stem + ".pch.xxh3"))) {
      return pch.string();
    }
  }
  const fs::path user = userCacheDirectory();
  if (!user.empty()) {
    std::error_code ec;
    fs::create_directories(user.parent_path(), ec);
    ::mkdir(user.c_str(), 0700);
    if (isPrivateDirectory(user)) {
      try {
        return buildShimPchIn(user, rebuild);
      } catch (const std::runtime_error&) {  // a process folder instead, below
      }
    }
  }
  return buildShimPchIn(processCacheDirectory(), rebuild);
}

std::mutex& pchMutex() {
  static std::mutex mutex;
  return mutex;
}

std::string& pchPath() {
  static std::string path;
  return path;
}

}  // namespace

namespace {

/// Errors a kernel may carry and still be normalized: names declared nowhere (the host's -D
/// could define them), what calls of helpers a kernel lacks cause (the paper's extracts call
/// helpers the extraction dropped, sometimes under the kernel's own name: 27 of its 247 kernels
/// carry such errors), and a __local variable in an inner scope, which the drivers the paper
/// measured on accepted (rodinia lavaMD). Any other error means the source does not compile.
bool isToleratedError(unsigned id) {
  namespace diag = clang::diag;
  switch (id) {
    case diag::err_undeclared_var_use:
    case diag::err_undeclared_var_use_suggest:
    case diag::err_unknown_typename:
    case diag::err_unknown_typename_suggest:
    case diag::err_typecheck_call_too_few_args:
    case diag::err_typecheck_call_too_few_args_one:
    case diag::err_typecheck_call_too_few_args_at_least:
    case diag::err_typecheck_call_too_few_args_at_least_one:
    case diag::err_typecheck_call_too_many_args:
    case diag::err_typecheck_call_too_many_args_one:
    case diag::err_typecheck_call_too_many_args_at_most:
    case diag::err_typecheck_call_too_many_args_at_most_one:
    case diag::err_typecheck_convert_incompatible:
    case diag::err_typecheck_convert_int_pointer:
    case diag::err_typecheck_convert_pointer_int:
    case diag::ext_typecheck_convert_int_pointer:
    case diag::ext_typecheck_convert_pointer_int:
    case diag::err_opencl_addrspace_scope:
      return true;
    default:
      return false;
  }
}

}  // namespace

void ErrorCollector::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                      const clang::Diagnostic& info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);
  if (level < clang::DiagnosticsEngine::Error) return;
  if (level == clang::DiagnosticsEngine::Fatal) fatal_ = true;
  llvm::SmallString<128> message;
  info.FormatDiagnostic(message);
  const llvm::StringRef text = message.str();
  for (const llvm::StringRef prefix : {"use of undeclared identifier '", "unknown type name '",
                                       "implicit declaration of function '"}) {
    if (!text.startswith(prefix)) continue;
    const llvm::StringRef name = text.drop_front(prefix.size()).split('\'').first;
    if (!name.empty()) undeclared_.insert(name.str());
  }
  const bool tolerated = level != clang::DiagnosticsEngine::Fatal && isToleratedError(info.getID());
  if (first_ && (tolerated || firstIntolerable_)) return;
  ClangError error;
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
  if (!tolerated && !firstIntolerable_) firstIntolerable_ = error;
  if (!first_) first_ = std::move(error);
}

namespace {

/// `path` with links and dots resolved, "" if it does not exist.
std::string resolvedPath(const std::string& path) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return "";
  std::string result(resolved);
  std::free(resolved);
  return result;
}

/// Why GuardedFileSystem refused a file, as Clang prints it after "cannot open file 'NAME': ".
enum class Refusal { kNotRegular = 1, kOutside };

class RefusalCategory : public std::error_category {
 public:
  const char* name() const noexcept override { return "deeptune-include"; }
  std::string message(int code) const override {
    return code == static_cast<int>(Refusal::kNotRegular)
               ? "not a regular file"
               : "outside the kernel file's folder (and libclc's headers)";
  }
};

std::error_code refusal(Refusal why) {
  static const RefusalCategory category;
  return {static_cast<int>(why), category};
}

/// The real file system, except that Clang may open only regular files (an `#include` of a FIFO
/// or a device fails at once instead of blocking forever or reading /dev/zero without end), and
/// only inside the given folders (an `#include "../../etc/hostname"` or one through a link that
/// leads out fails instead of copying another file's text into the output).
class GuardedFileSystem : public llvm::vfs::ProxyFileSystem {
 public:
  explicit GuardedFileSystem(const std::vector<std::string>& folders)
      : ProxyFileSystem(llvm::vfs::getRealFileSystem()) {
    for (const std::string& folder : folders) {
      std::string root = resolvedPath(folder);
      if (root.empty()) continue;
      if (root.back() != '/') root.push_back('/');
      roots_.push_back(std::move(root));
    }
  }

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(
      const llvm::Twine& path) override {
    const std::string name = path.str();
    const std::string resolved = resolvedPath(name);
    if (resolved.empty()) return ProxyFileSystem::openFileForRead(path);  // Clang's own error
    struct stat info {};
    if (::stat(resolved.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
      return refusal(Refusal::kNotRegular);
    }
    if (!isInside(resolved)) return refusal(Refusal::kOutside);
    return ProxyFileSystem::openFileForRead(resolved);
  }

 private:
  bool isInside(const std::string& resolved) const {
    return std::any_of(roots_.begin(), roots_.end(), [&](const std::string& root) {
      return resolved.compare(0, root.size(), root) == 0;
    });
  }

  std::vector<std::string> roots_;
};

}  // namespace

ClangResources::ClangResources() : moduleCache_(new clang::InMemoryModuleCache()) {}

clang::FileManager& ClangResources::filesFor(const std::string& fileName,
                                             const std::vector<std::string>& includeDirs) {
  const std::string folder = fs::path(fileName).parent_path().string();
  std::vector<std::string> allowed = {folder.empty() ? "." : folder};
  allowed.insert(allowed.end(), includeDirs.begin(), includeDirs.end());
  if (!files_ || allowed != folders_) {
    folders_ = allowed;
    allowed.push_back(DEEPTUNE_LIBCLC_INCLUDE_DIR "/clc");  // not all of /usr/include
    allowed.push_back(fs::path(shimPchPath()).parent_path().string());
    files_ = new clang::FileManager(clang::FileSystemOptions(),
                                    llvm::makeIntrusiveRefCnt<GuardedFileSystem>(allowed));
  }
  return *files_;
}

std::string shimPchPath() {
  const std::lock_guard<std::mutex> lock(pchMutex());
  if (pchPath().empty()) pchPath() = buildShimPch(false);
  return pchPath();
}

std::string writeShimPch(const std::string& dir) { return buildShimPchIn(dir, true); }

std::string shimPchFileStem() { return "opencl-shim-" + pchKey(); }

std::string shimPchChecksum(const std::string& path) { return fileChecksum(path); }

void setInstalledPchDirectoryForTests(const std::string& dir) {
  const std::lock_guard<std::mutex> lock(pchMutex());
  installedPchDirectoryOverride() = fs::path(dir);
  pchPath().clear();
}

std::string rebuildShimPch() {
  const std::lock_guard<std::mutex> lock(pchMutex());
  pchPath() = buildShimPch(true);
  return pchPath();
}

void ClangResources::preloadShimPch() {
  const std::string pch = shimPchPath();
  if (moduleCache_->lookupPCM(pch) != nullptr) return;
  auto buffer = llvm::MemoryBuffer::getFile(pch, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (buffer) moduleCache_->addPCM(pch, std::move(*buffer));  // else Clang reports it when parsing
}

void ClangResources::forgetLoadedFiles() {
  files_ = nullptr;
  folders_.clear();
  moduleCache_ = new clang::InMemoryModuleCache();
}

std::unique_ptr<clang::CompilerInstance> makeCompilerInstance(std::string_view source,
                                                              const std::string& fileName,
                                                              ErrorCollector& errors,
                                                              ClangResources& resources,
                                                              const data::SourceOptions& options) {
  std::vector<std::string> arguments = baseArguments();
  for (const std::string& define : options.defines)
    arguments.insert(arguments.end(), {"-D", define});
  for (const std::string& dir : options.includeDirs) arguments.insert(arguments.end(), {"-I", dir});
  arguments.insert(arguments.end(), {"-x", "cl", "-include-pch", shimPchPath(), fileName});
  auto instance =
      makeInstance(arguments, errors, &resources.filesFor(fileName, options.includeDirs),
                   &resources.moduleCache());
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
