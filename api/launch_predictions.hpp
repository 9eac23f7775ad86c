// `predict --launches`: the device of every launch of a CSV, each kernel file read once, and the
// CSV or JSON line of each decision.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/decision.hpp"

namespace deeptune::data {
struct CsvTable;
}

namespace deeptune::api {

class Predictor;

/// One launch decided.
struct LaunchDecision {
  int line = 0;                       ///< the row's line in the CSV
  std::string file;                   ///< as the row gives it
  std::string dsizeText, wgsizeText;  ///< the row's values as written
  double dsize = 0, wgsize = 0;
  Decision decision;
};

/// A launches CSV: columns file, dsize or transfer (the bytes the launch moves), wgsize;
/// optional kernel and build_options. A relative file is found from the CSV's folder.
class LaunchTable {
 public:
  /// Reads `path`; throws data::DataError for a bad CSV, a missing column, or both or neither
  /// of dsize and transfer.
  explicit LaunchTable(const std::string& path);
  ~LaunchTable();

  /// Rows (launches) of the file.
  size_t size() const;
  /// Kernel files read so far (each once).
  size_t kernelFiles() const { return sources_.size(); }

  /// Decides row `row` with `predictor`. Throws data::DataError at the row's cell for an empty
  /// file, a bad number, sizes out of range or bad build options; the reader's and the
  /// predictor's errors for the kernel file.
  LaunchDecision decide(size_t row, Predictor& predictor);

 private:
  std::unique_ptr<data::CsvTable> table_;
  std::string folder_;
  size_t file_, size_, wgsize_;
  std::optional<size_t> kernel_, buildOptions_;
  std::map<std::string, std::string> sources_;  ///< kernel file as resolved -> its text
};

/// The CSV header of the decisions: line, file, kernel, dsize, wgsize, device, device_name,
/// probability (with its line break).
std::string launchCsvHeader();

/// The CSV row of `launch` (sizes as the input wrote them, probability with 4 decimals).
std::string launchCsvRow(const LaunchDecision& launch);

/// The JSON object of `launch` on one line (no '\n'): line, file, kernel, dsize, wgsize, device,
/// probability, and device_name for a model of named devices.
std::string launchJson(const LaunchDecision& launch);

}  // namespace deeptune::api
