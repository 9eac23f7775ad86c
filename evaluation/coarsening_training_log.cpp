// What a coarsening evaluation keeps while it runs: every trained prediction so far, in a CSV of
// the report folder, so that a rerun with the same data and settings resumes; and the check of
// the runtimes against an oracles file.
#include "evaluation/coarsening_training_log.hpp"

#include <filesystem>

#include "data/csv_reader.hpp"
#include "data/file_io.hpp"
#include "evaluation/evaluation_error.hpp"

namespace deeptune::evaluation {

CoarseningTrainingLog::CoarseningTrainingLog(std::string path, std::string settings)
    : path_(std::move(path)), settings_(std::move(settings)) {
  content_ = data::csvRow({"device", "method", "run", "kernel", "factor", "fell_back", "settings"});
  std::error_code ec;
  if (std::filesystem::is_regular_file(std::filesystem::symlink_status(path_, ec))) {
    const data::CsvTable table = data::readCsv(path_);
    if (table.header.size() == 7) {
      for (size_t r = 0; r < table.rows.size(); ++r) {
        const std::vector<std::string>& row = table.rows[r];
        if (row[6] != settings_) continue;  // another data set or other settings
        CoarseningPrediction p;
        p.device = row[0];
        p.method = row[1];
        p.run = static_cast<int>(table.intAt(r, 2));
        p.kernel = row[3];
        p.factor = static_cast<int>(table.intAt(r, 4));
        p.fellBack = row[5] == "1";
        add(p);
      }
    }
  }
  kept_ = predictions_.size();
}

void CoarseningTrainingLog::add(const CoarseningPrediction& p) {
  predictions_.push_back(p);
  content_ += data::csvRow({p.device, p.method, std::to_string(p.run), p.kernel,
                            std::to_string(p.factor), p.fellBack ? "1" : "0", settings_});
  data::writeFileAtomically(path_, content_);
}

void CoarseningTrainingLog::remove() {
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

void checkCoarseningOracles(
    const std::string& path, const std::vector<std::string>& devices,
    const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice) {
  const auto oracles = data::readCoarseningOraclesCsv(path);
  for (size_t d = 0; d < devices.size() && d < kernelsByDevice.size(); ++d) {
    for (const data::CoarseningKernel& kernel : kernelsByDevice[d]) {
      for (const auto& oracle : oracles) {
        const auto best = oracle.bestCf.find(devices[d]);
        if (oracle.kernel == kernel.kernel && best != oracle.bestCf.end() &&
            best->second != kernel.bestFactor) {
          throw EvaluationError(path + ": kernel '" + kernel.kernel + "' on " + devices[d] +
                                ": best factor " + std::to_string(best->second) +
                                ", the runtimes say " + std::to_string(kernel.bestFactor));
        }
      }
    }
  }
}

}  // namespace deeptune::evaluation
