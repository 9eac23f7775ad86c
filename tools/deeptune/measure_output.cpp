// What `measure` and `validate` share: limits of their run options and comma lists of sizes.
#include "tools/deeptune/measure_output.hpp"

#include <cerrno>
#include <cstdlib>

#include "data/text_split.hpp"
#include "tools/deeptune/cli_common.hpp"

namespace deeptune::cli {

std::vector<size_t> parseSizeList(const std::string& text, const std::string& option, size_t max) {
  std::vector<size_t> sizes;
  const std::vector<std::string> items = data::splitText(text, ',');
  for (const std::string& item : items.empty() ? std::vector<std::string>{""} : items) {
    char* stop = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(item.c_str(), &stop, 10);
    if (item.empty() || *stop != '\0' || errno != 0 || value == 0 || item[0] == '-' ||
        value > max) {
      throw UsageError(option + ": '" + item + "' is not a size (positive integers up to " +
                       std::to_string(max) + ", comma-separated)");
    }
    sizes.push_back(static_cast<size_t>(value));
  }
  return sizes;
}

void checkRunOptions(const std::string& command, double timeout, int runs, long long wgsize) {
  if (!(timeout > 0 && timeout <= 86400)) {
    throw UsageError(command + ": --timeout must be between 0 and 86400 seconds");
  }
  if (runs != 0 && (runs < 5 || runs > 1000)) {
    throw UsageError(command + ": --runs must be between 5 and 1000");
  }
  if (wgsize < 0 || wgsize > (1 << 20)) {
    throw UsageError(command + ": --wgsize must be between 0 (automatic) and 1048576");
  }
}

}  // namespace deeptune::cli
