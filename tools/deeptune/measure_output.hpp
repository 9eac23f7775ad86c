// What `measure` and `validate` share: limits of their run options, comma lists of sizes, the
// check that no input is given twice, what a resumed output kept, progress lines.
#pragma once

#include <string>
#include <vector>

namespace deeptune::data {
class ResumableCsv;
}

namespace deeptune::cli {

/// Positive integers up to `max`, comma-separated; throws UsageError naming `option`.
std::vector<size_t> parseSizeList(const std::string& text, const std::string& option, size_t max);

/// The --factors of `measure --task coarsening`: a size list of factors among 1, 2, 4, 8, 16,
/// 32, including 1, none twice; throws UsageError "measure: --factors ..." otherwise.
std::vector<size_t> parseFactorList(const std::string& text);

/// Refuses run options out of range (UsageError starting with `command`): --timeout in (0,
/// 86400] s, --runs in [5, 1000] (`runs` 0: the command has none), --wgsize in [0, 2^20].
void checkRunOptions(const std::string& command, double timeout, int runs, long long wgsize);

/// Refuses a size listed twice (UsageError "OPTION lists N twice"): its rows would be duplicates.
void checkDistinctSizes(const std::vector<size_t>& sizes, const std::string& option);

/// Refuses a file given twice, by any spelling or link (the same device and inode), as
/// UsageError "measure: A and B are the same file ...": its kernels would be measured twice,
/// under two benchmark names. Files that cannot be stat'ed are left to the reader's error.
void checkDistinctFiles(const std::vector<std::string>& files);

/// Says on stderr what the writer of `output` found: rows kept from an earlier run, and the
/// bytes of a row an interrupted run left incomplete (cut off, measured again).
void reportResumed(const data::ResumableCsv& writer, const std::string& output);

/// "measure: [J/N] ELAPSED, ETA T: " after job `index` (from 0) of `count`, `elapsed` seconds in.
std::string progressPrefix(size_t index, size_t count, double elapsed);

}  // namespace deeptune::cli
