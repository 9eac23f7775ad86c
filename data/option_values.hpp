// Run option values of `measure` and `validate`: comma lists of sizes and factors, their limits.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace deeptune::data {

/// Positive integers up to `max`, comma-separated; throws DataError "OPTION: 'ITEM' is not a
/// size ..." naming `option` and the first bad item.
std::vector<size_t> parseSizeList(const std::string& text, const std::string& option, size_t max);

/// The --factors of `measure --task coarsening`: a size list of factors among 1, 2, 4, 8, 16,
/// 32, including 1, none twice; throws DataError "measure: --factors ..." otherwise.
std::vector<size_t> parseFactorList(const std::string& text);

/// Refuses run options out of range (DataError starting with `command`): --timeout in (0,
/// 86400] s, --runs in [5, 1000] (`runs` 0: the command has none), --wgsize in [0, 2^20].
void checkRunOptions(const std::string& command, double timeout, int runs, long long wgsize);

/// Refuses a global size outside [1, 2^31] (DataError "COMMAND: --gsize must be ...").
void checkGlobalSize(const std::string& command, size_t gsize);

/// Refuses a work-group size (0: automatic, always accepted) that is not a multiple of every
/// coarsening factor (DataError "measure: --wgsize W is not a multiple of the factor F").
void checkFactorWorkGroupSize(long long wgsize, const std::vector<size_t>& factors);

/// Refuses a size listed twice (DataError "OPTION lists N twice"): its rows would be duplicates.
void checkDistinctSizes(const std::vector<size_t>& sizes, const std::string& option);

/// Refuses a file given twice, by any spelling or link (the same device and inode), as
/// DataError "measure: A and B are the same file ...": its kernels would be measured twice,
/// under two benchmark names. Files that cannot be stat'ed ("-" is not) are left to the
/// reader's error.
void checkDistinctFiles(const std::vector<std::string>& files);

}  // namespace deeptune::data
