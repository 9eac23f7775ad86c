// A CSV written row by row so that an interrupted run can resume: the file is replaced atomically
// after each row, and the rows of an earlier run with the same header are kept.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace deeptune::data {

/// Rows go to `path`, replaced atomically after each row (writeFileAtomically), or straight to
/// standard output for "-". An existing regular file with the same header is resumed: its rows
/// are kept, and the keys (first two fields) of its rows are reported by has(). A file with
/// another header is refused (DataError at PATH:1:1), and so is one that is not a CSV.
class ResumableCsv {
 public:
  ResumableCsv(std::string path, const std::vector<std::string>& header);
  /// Rows kept from an earlier run.
  size_t kept() const { return done_.size(); }
  /// Whether a row whose first two fields are `first`, `second` is already in the file.
  bool has(const std::string& first, const std::string& second) const;
  /// Appends a row (and makes the file hold it before returning). Throws OutputError.
  void add(const std::vector<std::string>& fields);

 private:
  std::string path_;
  std::string content_;
  std::set<std::string> done_;
};

}  // namespace deeptune::data
