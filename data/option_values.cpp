// Run option values of `measure` and `validate`: parsing size lists and checking their limits.
#include "data/option_values.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include "data/data_error.hpp"
#include "data/text_split.hpp"

namespace deeptune::data {

std::vector<size_t> parseSizeList(const std::string& text, const std::string& option, size_t max) {
  std::vector<size_t> sizes;
  const std::vector<std::string> items = splitText(text, ',');
  for (const std::string& item : items.empty() ? std::vector<std::string>{""} : items) {
    char* stop = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(item.c_str(), &stop, 10);
    if (item.empty() || *stop != '\0' || errno != 0 || value == 0 || item[0] == '-' ||
        value > max) {
      throw DataError(option + ": '" + item + "' is not a size (positive integers up to " +
                      std::to_string(max) + ", comma-separated)");
    }
    sizes.push_back(static_cast<size_t>(value));
  }
  return sizes;
}

std::vector<size_t> parseFactorList(const std::string& text) {
  const std::vector<size_t> factors = parseSizeList(text, "measure: --factors", 32);
  for (size_t factor : factors) {
    if ((factor & (factor - 1)) != 0) {  // the model's labels: 1, 2, 4, 8, 16, 32
      throw DataError("measure: --factors: " + std::to_string(factor) +
                      " is not one of 1, 2, 4, 8, 16, 32");
    }
  }
  if (std::find(factors.begin(), factors.end(), size_t{1}) == factors.end()) {
    throw DataError("measure: --factors must include 1 (speedups are over factor 1)");
  }
  if (std::set<size_t>(factors.begin(), factors.end()).size() != factors.size()) {
    throw DataError("measure: --factors lists a factor twice");
  }
  return factors;
}

void checkRunOptions(const std::string& command, double timeout, int runs, long long wgsize) {
  if (!(timeout > 0 && timeout <= 86400)) {
    throw DataError(command + ": --timeout must be between 0 and 86400 seconds");
  }
  if (runs != 0 && (runs < 5 || runs > 1000)) {
    throw DataError(command + ": --runs must be between 5 and 1000");
  }
  if (wgsize < 0 || wgsize > (1 << 20)) {
    throw DataError(command + ": --wgsize must be between 0 (automatic) and 1048576");
  }
}

void checkGlobalSize(const std::string& command, size_t gsize) {
  if (gsize == 0 || gsize > (size_t{1} << 31)) {
    throw DataError(command + ": --gsize must be between 1 and 2^31");
  }
}

void checkFactorWorkGroupSize(long long wgsize, const std::vector<size_t>& factors) {
  for (size_t factor : factors) {
    if (wgsize > 0 && static_cast<size_t>(wgsize) % factor != 0) {
      throw DataError("measure: --wgsize " + std::to_string(wgsize) +
                      " is not a multiple of the factor " + std::to_string(factor));
    }
  }
}

void checkDistinctSizes(const std::vector<size_t>& sizes, const std::string& option) {
  std::set<size_t> seen;
  for (size_t size : sizes) {
    if (!seen.insert(size).second) {
      throw DataError(option + " lists " + std::to_string(size) +
                      " twice (its rows would be written twice)");
    }
  }
}

void checkDistinctFiles(const std::vector<std::string>& files) {
  std::map<std::pair<dev_t, ino_t>, std::string> seen;
  for (const std::string& file : files) {
    struct stat info {};
    if (file == "-" || ::stat(file.c_str(), &info) != 0) continue;
    const auto [first, fresh] = seen.emplace(std::make_pair(info.st_dev, info.st_ino), file);
    if (!fresh) {
      throw DataError("measure: " + first->second + " and " + file +
                      " are the same file (its kernels would be measured twice); give it once");
    }
  }
}

}  // namespace deeptune::data
