// A CSV written row by row so that an interrupted run can resume: the file is replaced atomically
// after each row, and the rows of an earlier run with the same header are kept.
#include "data/resumable_csv.hpp"

#include <sys/stat.h>

#include "data/csv_reader.hpp"
#include "data/data_error.hpp"
#include "data/file_io.hpp"

namespace deeptune::data {

ResumableCsv::ResumableCsv(std::string path, const std::vector<std::string>& header)
    : path_(std::move(path)) {
  struct stat info {};
  if (path_ != "-" && ::stat(path_.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
    const CsvTable table = readCsv(path_);
    if (table.header != header) {
      throw DataError(path_, 1, 1,
                      "has other columns than this run writes (measured on other devices?); "
                      "delete it or choose another output");
    }
    content_ = csvRow(header);
    for (const auto& row : table.rows) {
      content_ += csvRow(row);
      done_.insert(row[0] + '\n' + (row.size() > 1 ? row[1] : std::string()));
    }
    return;
  }
  add(header);
}

bool ResumableCsv::has(const std::string& first, const std::string& second) const {
  return done_.count(first + '\n' + second) > 0;
}

void ResumableCsv::add(const std::vector<std::string>& fields) {
  const std::string row = csvRow(fields);
  if (path_ == "-") {
    writeStandardOutput(row);
    return;
  }
  content_ += row;
  writeFileAtomically(path_, content_);
}

}  // namespace deeptune::data
