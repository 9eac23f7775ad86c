// What `measure` and `validate` share: limits of their run options, comma lists of sizes, and
// the resumable CSV `measure` writes row by row.
#include "tools/deeptune/measure_output.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>

#include "data/csv_reader.hpp"
#include "tools/deeptune/cli_common.hpp"

namespace deeptune::cli {

std::vector<size_t> parseSizeList(const std::string& text, const std::string& option, size_t max) {
  std::vector<size_t> sizes;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    char* stop = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(item.c_str(), &stop, 10);
    if (item.empty() || *stop != '\0' || errno != 0 || value == 0 || item[0] == '-' ||
        value > max) {
      throw UsageError(option + ": '" + item + "' is not a size (positive integers up to " +
                       std::to_string(max) + ", comma-separated)");
    }
    sizes.push_back(static_cast<size_t>(value));
    start = end + 1;
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

void checkNotAnInput(const std::string& output, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (output == "-" || ::stat(output.c_str(), &out) != 0) return;
  for (const std::string& input : inputs) {
    struct stat in {};
    if (::stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
      throw UsageError("measure: -o " + output + " is the input " + input);
    }
  }
}

RowWriter::RowWriter(std::string path, const std::vector<std::string>& header)
    : path_(std::move(path)) {
  struct stat info {};
  if (path_ != "-" && ::stat(path_.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
    const data::CsvTable table = data::readCsv(path_);
    if (table.header != header) {
      throw UsageError(path_ + ": has other columns than this run writes (measured on other " +
                       "devices?); delete it or choose another -o");
    }
    content_ = data::csvRow(header);
    for (const auto& row : table.rows) {
      content_ += data::csvRow(row);
      done_.insert(row[0] + '\n' + row[1]);
    }
    return;
  }
  add(header);
}

bool RowWriter::has(const std::string& first, const std::string& second) const {
  return done_.count(first + '\n' + second) > 0;
}

void RowWriter::add(const std::vector<std::string>& fields) {
  const std::string row = data::csvRow(fields);
  if (path_ == "-") {
    std::cout << row << std::flush;
    return;
  }
  content_ += row;
  writeOutput(path_, content_);
}

}  // namespace deeptune::cli
