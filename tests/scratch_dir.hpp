// Test helpers: a scratch folder removed at the end of a test, and counting output lines.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace deeptune::test {

/// A scratch folder for one test case, removed at the end of the scope.
struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::string& stem)
      : path(std::filesystem::temp_directory_path() / (stem + "-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  /// Writes `content` to a file of the folder and returns its path.
  std::string file(const std::string& name, const std::string& content) const {
    const std::string p = (path / name).string();
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
};

inline size_t lineCount(const std::string& text) {
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

}  // namespace deeptune::test
