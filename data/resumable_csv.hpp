// A CSV written row by row so that an interrupted run can resume: created once with its header,
// each row appended and synced, one writer at a time, the rows of an earlier run kept.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace deeptune::data {

/// Rows go to `path`: a new file is created with its header (createFileExclusively), and each
/// row is appended with one write and synced (fdatasync) before add() returns, so an interrupted
/// run leaves every finished row on disk. Symbolic links are followed, never replaced; a FIFO or
/// character device is written as a stream (no resume, no lock); "-" is standard output.
///
/// One writer at a time: a regular file is locked (flock, exclusive, on the file itself) for the
/// writer's lifetime; another writer of the same file (by any path spelling or link) is refused
/// with OutputError "PATH: another run is writing it ...", before the file is read or changed.
///
/// An existing regular file with the same header is resumed: its rows are kept, and the keys
/// (first two fields) of its rows are reported by has(). An empty file is treated as new. Every
/// row written ends with a line break, so what follows the file's last line break (outside
/// quotes) is a row an interrupted write cut: it is cut off the file (droppedBytes()) and the
/// resumed run writes that row again. A file with another header is refused (DataError at
/// PATH:1:1), and so is one whose rows before that are not a CSV; the file is then left as it was.
class ResumableCsv {
 public:
  ResumableCsv(std::string path, const std::vector<std::string>& header);
  ~ResumableCsv();
  ResumableCsv(const ResumableCsv&) = delete;
  ResumableCsv& operator=(const ResumableCsv&) = delete;

  /// Rows kept from an earlier run.
  size_t kept() const { return kept_; }
  /// Bytes of an incomplete last row of an earlier run that were cut off on opening (0: none).
  size_t droppedBytes() const { return dropped_; }
  /// Whether a row whose first two fields are `first`, `second` is in the file (kept or added).
  bool has(const std::string& first, const std::string& second) const;
  /// Appends a row (and makes the file hold it before returning). Throws OutputError; after a
  /// failed write the file is cut back to its rows before it.
  void add(const std::vector<std::string>& fields);

 private:
  enum class Mode { kStandardOutput, kStream, kJournal };
  void openExisting(const std::vector<std::string>& header);
  void lock(int fd) const;

  std::string path_;
  Mode mode_ = Mode::kJournal;
  int fd_ = -1;
  size_t size_ = 0;  ///< bytes of whole rows in the file (kJournal)
  size_t kept_ = 0;
  size_t dropped_ = 0;
  std::set<std::string> done_;
};

}  // namespace deeptune::data
