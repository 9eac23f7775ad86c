// What `measure` and `validate` share: limits of their run options, comma lists of sizes, and
// the resumable CSV `measure` writes row by row.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace deeptune::cli {

/// Positive integers up to `max`, comma-separated; throws UsageError naming `option`.
std::vector<size_t> parseSizeList(const std::string& text, const std::string& option, size_t max);

/// Refuses run options out of range (UsageError starting with `command`): --timeout in (0,
/// 86400] s, --runs in [5, 1000] (`runs` 0: the command has none), --wgsize in [0, 2^20].
void checkRunOptions(const std::string& command, double timeout, int runs, long long wgsize);

/// Refuses an output that is one of the inputs (it would be overwritten by the first row).
void checkNotAnInput(const std::string& output, const std::vector<std::string>& inputs);

/// Rows go to a file replaced atomically after each row, or straight to stdout for "-". An
/// existing regular file with the same header is resumed: its rows are kept, and the keys (first
/// two fields) of its rows are reported by has(). Another header is refused (UsageError).
class RowWriter {
 public:
  RowWriter(std::string path, const std::vector<std::string>& header);
  /// Rows kept from an earlier run.
  size_t kept() const { return done_.size(); }
  /// Whether a row whose first two fields are `first`, `second` is already in the file.
  bool has(const std::string& first, const std::string& second) const;
  void add(const std::vector<std::string>& fields);

 private:
  std::string path_;
  std::string content_;
  std::set<std::string> done_;
};

}  // namespace deeptune::cli
