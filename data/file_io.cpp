// Safe file input and output: bounded reads of regular files, atomic writes by exclusive
// temporary files, streams for devices and FIFOs, refusal of what must not be replaced.
#include "data/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

#include "data/data_error.hpp"

namespace deeptune::data {
namespace {

/// Closes a file descriptor at the end of a scope (errors of a read-only close do not matter).
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

std::string reason(int error) { return std::strerror(error); }

/// What a non-regular file is, for messages.
const char* kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// The folder part of `path` ("." for a bare name).
std::string folderOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

/// `path` with symbolic links followed: the path to write. Throws OutputError for a dangling
/// link or a loop.
std::string resolveLinks(const std::string& path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) {
    throw OutputError(path + ": a symbolic link whose target cannot be resolved (" + reason(errno) +
                      "); not replacing the link");
  }
  return resolved;
}

void writeStream(const std::string& path, const std::string& target, std::string_view content) {
  FileDescriptor out{::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC)};
  if (out.fd < 0) throw OutputError(path + ": cannot open for writing: " + reason(errno));
  if (const int error = writeAll(out.fd, content)) {
    throw OutputError(path + ": write failed: " + reason(error));
  }
  const int fd = out.fd;
  out.fd = -1;
  if (::close(fd) != 0) throw OutputError(path + ": write failed: " + reason(errno));
}

/// Creates an exclusive file with an unpredictable name beside `target` (flags: O_WRONLY or
/// O_RDWR), sets `temporary` to its name and returns its descriptor. Throws OutputError naming
/// `path`.
int createTemporaryBeside(const std::string& path, const std::string& target, int flags,
                          std::string& temporary) {
  const std::string folder = folderOf(target);
  const std::string stem = target.substr(target.find_last_of('/') + 1);
  std::random_device entropy;
  for (int attempt = 0; attempt < 100; ++attempt) {
    char suffix[24];
    std::snprintf(suffix, sizeof suffix, ".%08x%08x.tmp", entropy(), entropy());
    temporary = folder + "/." + stem + suffix;
    const int fd =
        ::open(temporary.c_str(), flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) {
      throw OutputError(path + ": cannot create a file in " + folder + ": " + reason(errno));
    }
  }
  throw OutputError(path + ": no free temporary name in " + folder);
}

void replaceRegular(const std::string& path, const std::string& target, const struct stat* old,
                    std::string_view content) {
  std::string temporary;
  FileDescriptor out{createTemporaryBeside(path, target, O_WRONLY, temporary)};
  auto fail = [&](const std::string& what, int error) {
    ::unlink(temporary.c_str());
    throw OutputError(path + ": " + what + ": " + reason(error));
  };
  if (old != nullptr && ::fchmod(out.fd, old->st_mode & 07777) != 0) fail("chmod failed", errno);
  if (const int error = writeAll(out.fd, content)) fail("write failed", error);
  const int fd = out.fd;
  out.fd = -1;
  if (::close(fd) != 0) fail("write failed", errno);
  if (::rename(temporary.c_str(), target.c_str()) != 0) fail("cannot replace file", errno);
}

}  // namespace

int writeAll(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t wrote = ::write(fd, content.data(), content.size());
    if (wrote < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    content.remove_prefix(static_cast<size_t>(wrote));
  }
  return 0;
}

std::string readFileBytes(const std::string& path, size_t limit) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  FileDescriptor in{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (in.fd < 0) throw DataError(path, 1, 1, "cannot open file: " + reason(errno));
  struct stat info {};
  if (::fstat(in.fd, &info) != 0) throw DataError(path, 1, 1, "cannot stat: " + reason(errno));
  if (!S_ISREG(info.st_mode)) {
    throw DataError(path, 1, 1, std::string("is ") + kindOf(info.st_mode) + ", expected a file");
  }
  const auto tooLarge = [&] {
    return DataError(path, 1, 1,
                     "file too large: over the limit of " + std::to_string(limit) + " bytes");
  };
  if (static_cast<unsigned long long>(info.st_size) > limit) throw tooLarge();
  return readOpenFile(in.fd, path, limit);
}

std::string readOpenFile(int fd, const std::string& path, size_t limit) {
  struct stat info {};
  std::string bytes;
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) &&
      static_cast<unsigned long long>(info.st_size) <= limit) {
    bytes.reserve(static_cast<size_t>(info.st_size));
  }
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw DataError(path, 1, 1, "cannot read file: " + reason(errno));
    }
    if (got == 0) break;
    if (bytes.size() + static_cast<size_t>(got) > limit) {
      throw DataError(path, 1, 1,
                      "file too large: over the limit of " + std::to_string(limit) + " bytes");
    }
    bytes.append(buffer, static_cast<size_t>(got));
  }
  return bytes;
}

std::string readStandardInput(size_t limit) {
  std::string bytes;
  char buffer[1 << 16];
  for (;;) {
    const size_t room = std::min(sizeof buffer, limit + 1 - bytes.size());
    const ssize_t got = ::read(STDIN_FILENO, buffer, room);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw DataError("<stdin>", 1, 1, "cannot read standard input: " + reason(errno));
    }
    if (got == 0) break;
    bytes.append(buffer, static_cast<size_t>(got));
    if (bytes.size() > limit) {
      throw DataError("<stdin>", 1, 1,
                      "input too large: over the limit of " + std::to_string(limit) + " bytes");
    }
  }
  return bytes;
}

void checkOutputPath(const std::string& path) {
  if (path.empty()) throw DataError("(output)", 1, 1, "empty output path");
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode) || S_ISBLK(info.st_mode) || S_ISSOCK(info.st_mode)) {
      throw DataError(path, 1, 1, std::string("is ") + kindOf(info.st_mode) + ", cannot write it");
    }
    return;
  }
  const std::string folder = folderOf(path);
  if (::stat(folder.c_str(), &info) != 0) {
    throw DataError(path, 1, 1, "cannot write: folder " + folder + ": " + reason(errno));
  }
  if (!S_ISDIR(info.st_mode))
    throw DataError(path, 1, 1, "cannot write: " + folder + " is not a folder");
}

void checkOutputNotInput(const std::string& output, const std::vector<std::string>& inputs,
                         OutputKind kind) {
  if (output.empty()) throw DataError("(output)", 1, 1, "empty output path");
  if (output == "-") {
    if (kind == OutputKind::kFileOrStdout) return;
    throw DataError(output, 1, 1,
                    kind == OutputKind::kFolder ? "a report folder cannot be standard output"
                                                : "this output cannot be standard output");
  }
  struct stat out {};
  if (::stat(output.c_str(), &out) != 0) return;  // not there yet: no input can be it
  if (!S_ISREG(out.st_mode) && !S_ISDIR(out.st_mode)) return;
  for (const std::string& input : inputs) {
    struct stat in {};
    if (input.empty() || input == "-" || ::stat(input.c_str(), &in) != 0) continue;
    if (in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
      throw DataError(output, 1, 1,
                      "is the input " + input + " (the same file); refusing to overwrite it");
    }
    struct stat folder {};
    if (kind == OutputKind::kFolder && S_ISREG(in.st_mode)) {
      char resolved[PATH_MAX];
      if (::realpath(input.c_str(), resolved) != nullptr &&
          ::stat(folderOf(resolved).c_str(), &folder) == 0 && folder.st_dev == out.st_dev &&
          folder.st_ino == out.st_ino) {
        throw DataError(output, 1, 1,
                        "holds the input " + input + "; write the report to another folder");
      }
    }
  }
}

void writeFileAtomically(const std::string& path, std::string_view content) {
  if (path.empty()) throw OutputError("(output): empty output path");
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    if (errno != ENOENT) throw OutputError(path + ": cannot write: " + reason(errno));
    replaceRegular(path, path, nullptr, content);  // a new file
    return;
  }
  std::string target = path;
  if (S_ISLNK(info.st_mode)) {
    target = resolveLinks(path);
    if (::lstat(target.c_str(), &info) != 0) {
      throw OutputError(path + ": cannot stat its target " + target + ": " + reason(errno));
    }
  }
  if (S_ISREG(info.st_mode)) {
    replaceRegular(path, target, &info, content);
  } else if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) {
    writeStream(path, target, content);
  } else {
    throw OutputError(path + ": is " + kindOf(info.st_mode) + ", not replacing it");
  }
}

int createFileExclusively(const std::string& path, std::string_view content,
                          const std::function<void(int fd)>& prepare) {
  if (path.empty()) throw OutputError("(output): empty output path");
  std::string temporary;
  FileDescriptor file{createTemporaryBeside(path, path, O_RDWR, temporary)};
  auto fail = [&](const std::string& what, int error) {
    ::unlink(temporary.c_str());
    throw OutputError(path + ": " + what + ": " + reason(error));
  };
  if (const int error = writeAll(file.fd, content)) fail("write failed", error);
  if (::fdatasync(file.fd) != 0) fail("sync failed", errno);
  try {
    prepare(file.fd);
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  if (::link(temporary.c_str(), path.c_str()) == 0) {
    ::unlink(temporary.c_str());
    const int fd = file.fd;
    file.fd = -1;
    return fd;
  }
  const int error = errno;
  ::unlink(temporary.c_str());
  if (error == EEXIST) return -1;
  if (error != EPERM && error != EOPNOTSUPP && error != ENOSYS) fail("cannot create", error);
  // No hard links here (e.g. FAT, some FUSE file systems): create the name itself, exclusively,
  // and prepare it (lock it) before writing, so another process opening it meanwhile finds it
  // empty or locked, never half-written by a run it cannot see.
  FileDescriptor direct{
      ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0666)};
  if (direct.fd < 0) {
    if (errno == EEXIST) return -1;
    throw OutputError(path + ": cannot create: " + reason(errno));
  }
  prepare(direct.fd);  // if it throws, the file is another process's now: left to it
  const auto failDirect = [&](const std::string& what, int failure) {
    ::unlink(path.c_str());  // still ours: created and prepared (locked) by this call
    throw OutputError(path + ": " + what + ": " + reason(failure));
  };
  if (const int failure = writeAll(direct.fd, content)) failDirect("write failed", failure);
  if (::fdatasync(direct.fd) != 0) failDirect("sync failed", errno);
  const int fd = direct.fd;
  direct.fd = -1;
  return fd;
}

void writeStandardOutput(std::string_view content) {
  const size_t wrote = std::fwrite(content.data(), 1, content.size(), stdout);
  if (wrote != content.size() || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    throw OutputError(std::string("standard output: write failed: ") + reason(errno));
  }
}

std::vector<std::string> readSourceFolder(const std::string& folder, const std::string& extension) {
  std::error_code error;
  std::vector<std::filesystem::path> files;
  uintmax_t total = 0;
  for (std::filesystem::recursive_directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (it->path().extension() != extension || !it->is_regular_file()) continue;
    total += std::min<uintmax_t>(it->file_size(error), kMaxSourceBytes);
    if (total > kMaxSourceFolderBytes) {
      throw DataError(folder + ": more than " + std::to_string(kMaxSourceFolderBytes >> 20) +
                      " MiB of " + extension + " files");
    }
    files.push_back(it->path());
  }
  if (error) throw DataError(folder + ": " + error.message());
  if (files.empty()) throw DataError(folder + " has no " + extension + " file");
  std::sort(files.begin(), files.end());
  std::vector<std::string> sources;
  for (const auto& file : files) sources.push_back(readFileBytes(file.string(), kMaxSourceBytes));
  return sources;
}

}  // namespace deeptune::data
