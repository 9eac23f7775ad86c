// What `measure` and `validate` share: limits of their run options, comma lists of sizes, the
// check that no input is given twice, what a resumed output kept, progress lines.
#include "tools/deeptune/measure_output.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <utility>

#include "data/resumable_csv.hpp"
#include "data/text_split.hpp"
#include "tools/deeptune/cli_common.hpp"
#include "tools/deeptune/progress.hpp"

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

std::vector<size_t> parseFactorList(const std::string& text) {
  const std::vector<size_t> factors = parseSizeList(text, "measure: --factors", 32);
  for (size_t factor : factors) {
    if ((factor & (factor - 1)) != 0) {  // the model's labels: 1, 2, 4, 8, 16, 32
      throw UsageError("measure: --factors: " + std::to_string(factor) +
                       " is not one of 1, 2, 4, 8, 16, 32");
    }
  }
  if (std::find(factors.begin(), factors.end(), size_t{1}) == factors.end()) {
    throw UsageError("measure: --factors must include 1 (speedups are over factor 1)");
  }
  if (std::set<size_t>(factors.begin(), factors.end()).size() != factors.size()) {
    throw UsageError("measure: --factors lists a factor twice");
  }
  return factors;
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

void checkDistinctSizes(const std::vector<size_t>& sizes, const std::string& option) {
  std::set<size_t> seen;
  for (size_t size : sizes) {
    if (!seen.insert(size).second) {
      throw UsageError(option + " lists " + std::to_string(size) +
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
      throw UsageError("measure: " + first->second + " and " + file +
                       " are the same file (its kernels would be measured twice); give it once");
    }
  }
}

void reportResumed(const data::ResumableCsv& writer, const std::string& output) {
  if (writer.droppedBytes() > 0) {
    std::cerr << "measure: " << output << ": cut off an incomplete last row ("
              << writer.droppedBytes() << " bytes) that an interrupted run left; measured again\n";
  }
  if (writer.kept() > 0) {
    std::cerr << "measure: resuming " << output << ": " << writer.kept()
              << " rows kept, not measured again\n";
  }
}

std::string progressPrefix(size_t index, size_t count, double elapsed) {
  const double eta =
      elapsed / static_cast<double>(index + 1) * static_cast<double>(count - index - 1);
  char line[160];
  std::snprintf(line, sizeof line, "measure: [%zu/%zu] %s, ETA %s: ", index + 1, count,
                formatDuration(elapsed).c_str(), formatDuration(eta).c_str());
  return line;
}

}  // namespace deeptune::cli
