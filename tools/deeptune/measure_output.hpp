// What `measure` and `validate` share: limits of their run options and comma lists of sizes.
#pragma once

#include <string>
#include <vector>

namespace deeptune::cli {

/// Positive integers up to `max`, comma-separated; throws UsageError naming `option`.
std::vector<size_t> parseSizeList(const std::string& text, const std::string& option, size_t max);

/// Refuses run options out of range (UsageError starting with `command`): --timeout in (0,
/// 86400] s, --runs in [5, 1000] (`runs` 0: the command has none), --wgsize in [0, 2^20].
void checkRunOptions(const std::string& command, double timeout, int runs, long long wgsize);

}  // namespace deeptune::cli
