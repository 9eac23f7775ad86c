// A CSV written row by row so that an interrupted run can resume: created once with its header,
// each row appended and synced, one writer at a time (flock), the rows of an earlier run kept.
#include "data/resumable_csv.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "data/csv_reader.hpp"
#include "data/data_error.hpp"
#include "data/file_io.hpp"

namespace deeptune::data {
namespace {

std::string reason(int error) { return std::strerror(error); }

/// The key has() looks up: the first two fields.
std::string keyOf(const std::string& first, const std::string& second) {
  return first + '\n' + second;
}

/// Writes all of `bytes` at `offset` of `fd` (pwrite); returns 0 or the errno of the failure.
int writeAllAt(int fd, std::string_view bytes, size_t offset) {
  while (!bytes.empty()) {
    const ssize_t wrote = ::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (wrote < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (wrote == 0) return ENOSPC;
    bytes.remove_prefix(static_cast<size_t>(wrote));
    offset += static_cast<size_t>(wrote);
  }
  return 0;
}

/// Offset just past the last line break outside quoted fields: where the last whole record
/// ends. A quote opens a quoted field only at the start of a field (elsewhere it is left for the
/// parser to refuse), so a stray quote cannot make the rows after it look like one cut row.
size_t endOfWholeRecords(std::string_view text) {
  size_t end = 0;
  bool quoted = false;
  bool fieldStart = true;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        ++i;  // a doubled quote inside the field
      } else if (c == '"') {
        quoted = false;
      }
    } else if (c == '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
    } else if (c == '\n' || c == '\r') {
      end = i + 1;
      fieldStart = true;
    } else {
      fieldStart = c == ',';
    }
  }
  return end;
}

}  // namespace

ResumableCsv::ResumableCsv(std::string path, const std::vector<std::string>& header)
    : path_(std::move(path)) {
  const std::string headerRow = csvRow(header);
  if (path_ == "-") {
    mode_ = Mode::kStandardOutput;
    writeStandardOutput(headerRow);
    return;
  }
  if (path_.empty()) throw OutputError("(output): empty output path");
  for (int attempt = 0; attempt < 10; ++attempt) {
    // O_NONBLOCK: opening a FIFO must not wait here (openExisting reopens it for writing).
    fd_ = ::open(path_.c_str(), O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd_ >= 0) {
      try {
        openExisting(header);
      } catch (...) {
        ::close(fd_);
        fd_ = -1;
        throw;
      }
      return;
    }
    if (errno != ENOENT) throw OutputError(path_ + ": cannot open for writing: " + reason(errno));
    struct stat link {};
    if (::lstat(path_.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      throw OutputError(path_ + ": a symbolic link whose target does not exist; not replacing it");
    }
    // Locked before it gets its name: no other run can take it between creation and lock.
    fd_ = createFileExclusively(path_, headerRow, [this](int fd) { lock(fd); });
    if (fd_ >= 0) {
      size_ = headerRow.size();
      return;
    }
    // Another process created it meanwhile: open that file (locked, or to resume).
  }
  throw OutputError(path_ + ": cannot open or create it (it keeps appearing and disappearing)");
}

ResumableCsv::~ResumableCsv() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

void ResumableCsv::lock(int fd) const {
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) {
      throw OutputError(path_ +
                        ": another run is writing it (the file is locked); left untouched: wait "
                        "for that run to end or choose another output");
    }
    throw OutputError(path_ + ": cannot lock: " + reason(errno));
  }
}

void ResumableCsv::openExisting(const std::vector<std::string>& header) {
  struct stat info {};
  if (::fstat(fd_, &info) != 0) throw OutputError(path_ + ": cannot stat: " + reason(errno));
  const std::string headerRow = csvRow(header);
  if (S_ISFIFO(info.st_mode) || S_ISCHR(info.st_mode)) {
    // A stream, as a shell redirection writes it (a FIFO waits for its reader): no resume.
    ::close(fd_);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) throw OutputError(path_ + ": cannot open for writing: " + reason(errno));
    mode_ = Mode::kStream;
    if (const int error = writeAll(fd_, headerRow)) {
      throw OutputError(path_ + ": write failed: " + reason(error));
    }
    return;
  }
  if (!S_ISREG(info.st_mode)) {
    throw OutputError(path_ + ": not a regular file, FIFO or character device; not writing it");
  }
  lock(fd_);  // before reading: another run's rows are not ours to read or change
  const std::string text = readOpenFile(fd_, path_, kMaxCsvBytes);
  if (text.empty()) {  // created empty (by a user, or a run stopped before its header)
    if (const int error = writeAllAt(fd_, headerRow, 0)) {
      throw OutputError(path_ + ": write failed: " + reason(error));
    }
    if (::fdatasync(fd_) != 0) throw OutputError(path_ + ": sync failed: " + reason(errno));
    size_ = headerRow.size();
    return;
  }
  // Every row this class writes ends with a line break: what follows the last one is a row an
  // interrupted write cut (or left without its break), measured again by the resumed run.
  const size_t whole = endOfWholeRecords(text);
  const CsvTable table = parseCsv(std::string_view(text).substr(0, whole), path_);
  if (table.header != header) {
    throw DataError(path_, 1, 1,
                    "has other columns than this run writes (measured on other devices?); "
                    "delete it or choose another output");
  }
  if (whole < text.size()) {
    if (::ftruncate(fd_, static_cast<off_t>(whole)) != 0 || ::fdatasync(fd_) != 0) {
      throw OutputError(path_ + ": cannot cut off its incomplete last row: " + reason(errno));
    }
    dropped_ = text.size() - whole;
  }
  size_ = whole;
  for (const auto& row : table.rows) {
    done_.insert(keyOf(row[0], row.size() > 1 ? row[1] : std::string()));
  }
  kept_ = table.rows.size();
}

bool ResumableCsv::has(const std::string& first, const std::string& second) const {
  return done_.count(keyOf(first, second)) > 0;
}

void ResumableCsv::add(const std::vector<std::string>& fields) {
  const std::string row = csvRow(fields);
  if (mode_ == Mode::kStandardOutput) {
    writeStandardOutput(row);
  } else if (mode_ == Mode::kStream) {
    if (const int error = writeAll(fd_, row)) {
      throw OutputError(path_ + ": write failed: " + reason(error));
    }
  } else {
    if (const int error = writeAllAt(fd_, row, size_)) {
      // Cut back to the whole rows; if even that fails, a rerun cuts the partial row off.
      const bool cut = ::ftruncate(fd_, static_cast<off_t>(size_)) == 0;
      throw OutputError(path_ + ": write failed: " + reason(error) +
                        (cut ? "" : "; its last row is incomplete (a rerun cuts it off)"));
    }
    if (::fdatasync(fd_) != 0) throw OutputError(path_ + ": sync failed: " + reason(errno));
    size_ += row.size();
  }
  if (!fields.empty()) done_.insert(keyOf(fields[0], fields.size() > 1 ? fields[1] : ""));
}

}  // namespace deeptune::data
