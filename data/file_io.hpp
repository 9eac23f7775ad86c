// Safe file input and output for every module: bounded reads of regular files only, and atomic
// writes that never replace what the program did not create.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace deeptune::data {

/// Size limits of the files the project reads (bytes), checked before reading.
constexpr size_t kMaxCsvBytes = size_t{256} << 20;           ///< labelled data, folds
constexpr size_t kMaxModelFileBytes = size_t{64} << 20;      ///< model files (~0.3 MB today)
constexpr size_t kMaxVocabularyBytes = size_t{1} << 20;      ///< vocabulary JSON
constexpr size_t kMaxSourceBytes = size_t{4} << 20;          ///< kernel sources (the rewriter's)
constexpr size_t kMaxSourceFolderBytes = size_t{512} << 20;  ///< readSourceFolder, all files

/// An output that could not be written: one line "PATH: reason".
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The whole regular file at `path` if it holds at most `limit` bytes. Throws DataError
/// (PATH:1:1) for a missing or unreadable file, a directory, a FIFO, device or socket (never
/// opened for reading, so a FIFO cannot block), and a file over the limit (checked before
/// reading and again while reading, for a file that grows).
std::string readFileBytes(const std::string& path, size_t limit);

/// Every regular file of `folder` and its subfolders (symbolic links to folders not followed) whose
/// name ends in `extension` (e.g. ".cl"), sorted by path, each read within kMaxSourceBytes, at most
/// kMaxSourceFolderBytes in all. Throws DataError (without a position) naming the folder when it
/// cannot be listed, holds no such file or too many bytes, and readFileBytes' DataError for a file.
std::vector<std::string> readSourceFolder(const std::string& folder, const std::string& extension);

/// The rest of the open regular file `fd` (from its current offset), at most `limit` bytes; throws
/// DataError (PATH:1:1) naming `path` if it is larger or cannot be read.
std::string readOpenFile(int fd, const std::string& path, size_t limit);

/// All of standard input, at most `limit` bytes (read no further than one byte past it); throws
/// DataError for "<stdin>" if it is larger or cannot be read.
std::string readStandardInput(size_t limit);

/// Throws DataError (PATH:1:1) when `path` cannot be an output of writeFileAtomically: its folder
/// is missing or not a folder, or it names a folder, a block device or a socket. For checking
/// an output before long work starts.
void checkOutputPath(const std::string& path);

/// What a command's output argument may name (for checkOutputNotInput).
enum class OutputKind {
  kFile,          ///< a file; "-" is refused (the command cannot write to standard output)
  kFileOrStdout,  ///< a file, or "-" for standard output
  kFolder,        ///< a folder whose files the command writes (evaluate's report); "-" refused
};

/// The one rule for every output a command writes, checked before any work. Throws DataError
/// (OUTPUT:1:1) for an empty path, for "-" where `kind` has no standard output, and for an output
/// that is the same file as one of `inputs` (device and inode, symbolic links followed), which
/// writing it would destroy; a kFolder output is refused when it is an input or directly holds
/// one. A path that does not exist yet passes, as do an output that is not a regular file or
/// folder (a device or FIFO is written as a stream) and inputs that are "-" or cannot be stat'ed
/// (their reader reports them).
void checkOutputNotInput(const std::string& output, const std::vector<std::string>& inputs,
                         OutputKind kind);

/// Writes `content` to `path` so that no reader ever sees half of it:
/// - a regular file (or a new name) is replaced atomically: the text goes to a new file with an
///   unpredictable name, created exclusively in the same folder, then renamed over `path`
///   (a replaced file keeps its permission bits; a new one gets 0666 less the umask);
/// - a symbolic link is followed to its target, which is then written by these rules (a dangling
///   link is refused); the link itself is never replaced;
/// - a character device or a FIFO (`/dev/null`, `/dev/stdout`, a pipe) is written as a stream,
///   as a shell redirection would;
/// - a folder, block device or socket is refused.
/// Every write and the close are checked. Throws OutputError naming `path`; on failure the
/// temporary file is removed and `path` is unchanged.
void writeFileAtomically(const std::string& path, std::string_view content);

/// Creates the regular file `path` holding `content` so that no reader ever sees it partly
/// written and nothing is ever replaced: `content` goes to an exclusive temporary file in the same
/// folder (synced), `prepare(fd)` runs on it (e.g. to lock it), then it is hard-linked to `path`,
/// which fails when `path` exists as anything (a dangling symbolic link included), and the
/// temporary name is removed. On a file system without hard links `path` is created with
/// O_EXCL instead and `prepare` runs before `content` is written. Returns the open read-write
/// descriptor (close-on-exec; the caller closes it), or -1 when `path` exists. Throws OutputError
/// naming `path` (or what `prepare` throws); nothing is left behind then, except in that
/// fallback when `prepare` throws (the empty file is then another process's, which opened it).
int createFileExclusively(const std::string& path, std::string_view content,
                          const std::function<void(int fd)>& prepare);

/// Writes all of `content` to the descriptor `fd` (retrying short and interrupted writes);
/// returns 0 or the errno of the failed write.
int writeAll(int fd, std::string_view content);

/// Writes `content` to standard output and flushes it; throws OutputError("standard output: ...")
/// when that fails (e.g. a full disk behind a redirection).
void writeStandardOutput(std::string_view content);

}  // namespace deeptune::data
