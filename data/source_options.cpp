// SourceOptions: validation, and conversion from and to OpenCL build-option strings (and the
// flags a kernel file is built with).
#include "data/source_options.hpp"

#include <sys/stat.h>

#include <cctype>
#include <filesystem>
#include <sstream>

#include "data/data_error.hpp"

namespace deeptune::data {
namespace {

/// Bounds on what a host may pass (a build-options string is a few hundred bytes).
constexpr size_t kMaxOptions = 1024;
constexpr size_t kMaxOptionBytes = 4096;

void checkPlain(const std::string& value, const std::string& what) {
  if (value.empty()) throw DataError(what + ": empty value");
  if (value.size() > kMaxOptionBytes) {
    throw DataError(what + " " + quoteValue(value) + ": longer than " +
                    std::to_string(kMaxOptionBytes) + " bytes");
  }
  for (const char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isspace(u) || std::iscntrl(u) || c == '"' || c == '\'' || c == '\\') {
      throw DataError(what + " " + quoteValue(value) +
                      ": spaces, quotes, backslashes and control characters are not "
                      "supported (OpenCL splits build options at spaces)");
    }
  }
}

void checkDefine(const std::string& define) {
  checkPlain(define, "-D");
  const std::string name = define.substr(0, define.find('='));
  const bool identifier =
      !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
          std::string::npos;
  if (!identifier) {
    throw DataError("-D " + quoteValue(define) +
                    ": expected NAME or NAME=VALUE with NAME an identifier");
  }
}

void checkIncludeDir(const std::string& dir) {
  checkPlain(dir, "-I");
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0) {
    throw DataError("-I " + quoteValue(dir) + ": no such folder");
  }
  if (!S_ISDIR(info.st_mode)) throw DataError("-I " + quoteValue(dir) + ": not a folder");
}

}  // namespace

std::string SourceOptions::buildFlags() const {
  std::string flags;
  for (const std::string& define : defines) flags += (flags.empty() ? "-D " : " -D ") + define;
  for (const std::string& dir : includeDirs) flags += (flags.empty() ? "-I " : " -I ") + dir;
  return flags;
}

SourceOptions makeSourceOptions(const std::vector<std::string>& defines,
                                const std::vector<std::string>& includeDirs) {
  if (defines.size() + includeDirs.size() > kMaxOptions) {
    throw DataError("more than " + std::to_string(kMaxOptions) + " -D/-I options");
  }
  for (const std::string& define : defines) checkDefine(define);
  for (const std::string& dir : includeDirs) checkIncludeDir(dir);
  return SourceOptions{defines, includeDirs};
}

std::string openClBuildFlags(const SourceOptions& options, const std::string& sourceFile) {
  namespace fs = std::filesystem;
  SourceOptions absolute;
  absolute.defines = options.defines;
  const fs::path folder = fs::path(sourceFile).parent_path();
  const std::string own = fs::absolute(folder.empty() ? "." : folder).lexically_normal().string();
  // A folder with a space cannot be passed (OpenCL splits the options at spaces); -I ones are
  // refused when given, the file's own folder is left out.
  if (own.find_first_of(" \t") == std::string::npos) absolute.includeDirs.push_back(own);
  for (const std::string& dir : options.includeDirs) {
    absolute.includeDirs.push_back(fs::absolute(dir).lexically_normal().string());
  }
  return absolute.buildFlags();
}

SourceOptions sourceOptionsFromBuildFlags(const std::string& flags) {
  std::istringstream words(flags);
  std::vector<std::string> defines;
  std::vector<std::string> includeDirs;
  std::string word;
  while (words >> word) {
    for (const auto& [prefix, list] :
         {std::pair<const char*, std::vector<std::string>*>{"-D", &defines},
          {"-I", &includeDirs}}) {
      if (word.rfind(prefix, 0) != 0) continue;
      std::string value = word.substr(2);
      if (value.empty() && !(words >> value)) {
        throw DataError(std::string(prefix) + " at the end of the build options");
      }
      list->push_back(value);
    }
  }
  return makeSourceOptions(defines, includeDirs);
}

}  // namespace deeptune::data
