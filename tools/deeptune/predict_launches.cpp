// deeptune predict --launches: the device of every launch of a CSV, each source rewritten once.
#include "tools/deeptune/predict_launches.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "api/predictor.hpp"
#include "data/csv_reader.hpp"
#include "data/source_options.hpp"
#include "tools/deeptune/cli_common.hpp"
#include "tools/deeptune/each_input.hpp"
#include "tools/deeptune/progress.hpp"

namespace deeptune::cli {
namespace {

constexpr size_t kProgressFrom = 50;  ///< launches from which progress is shown
constexpr size_t kProgressEvery = 50;

/// The columns of a launches file.
struct LaunchColumns {
  size_t file, size, wgsize;
  std::optional<size_t> kernel, buildOptions;
};

LaunchColumns launchColumns(const data::CsvTable& table) {
  LaunchColumns columns{table.column("file"), 0, table.column("wgsize"), table.findColumn("kernel"),
                        table.findColumn("build_options")};
  const auto dsize = table.findColumn("dsize");
  const auto transfer = table.findColumn("transfer");
  if (dsize.has_value() == transfer.has_value()) {
    throw data::DataError(table.source, table.headerLine, 1,
                          "a launches file has one column dsize or transfer (the bytes the "
                          "launch moves)");
  }
  columns.size = dsize ? *dsize : *transfer;
  return columns;
}

}  // namespace

int predictLaunches(const std::string& path, const std::string& modelPath, bool json) {
  const data::CsvTable table = data::readCsv(path);
  const LaunchColumns columns = launchColumns(table);
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  api::Predictor predictor(modelPath);
  std::map<std::string, std::string> sources;  // file as resolved -> its text, read once
  if (!json) {
    std::cout << data::csvRow(
        {"line", "file", "kernel", "dsize", "wgsize", "device", "device_name", "probability"});
  }
  ProgressPrinter progress;
  const bool showProgress = table.rows.size() >= kProgressFrom;
  size_t failed = 0;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    const std::vector<std::string>& row = table.rows[r];
    try {
      const std::string& file = row[columns.file];
      if (file.empty()) throw table.errorAt(r, columns.file, "no kernel file");
      const double dsize = table.doubleAt(r, columns.size);
      const double wgsize = table.doubleAt(r, columns.wgsize);
      try {
        api::checkLaunchSizes(dsize, wgsize);
      } catch (const std::exception& e) {
        throw table.errorAt(r, columns.size, e.what());
      }
      data::SourceOptions options;
      if (columns.buildOptions) {
        try {
          options = data::sourceOptionsFromBuildFlags(row[*columns.buildOptions]);
        } catch (const std::invalid_argument& e) {
          throw table.errorAt(r, *columns.buildOptions, e.what());
        }
      }
      const std::filesystem::path resolved =
          std::filesystem::path(file).is_absolute() ? std::filesystem::path(file) : folder / file;
      auto source = sources.find(resolved.string());
      if (source == sources.end()) {
        source = sources.emplace(resolved.string(), readFile(resolved.string())).first;
      }
      const std::string kernel = columns.kernel ? row[*columns.kernel] : "";
      const api::Decision decision =
          predictor.predict(source->second, resolved.string(), kernel, dsize, wgsize, options);
      if (json) {
        nlohmann::json out = {{"line", table.rowLines[r]},
                              {"file", file},
                              {"kernel", decision.kernel},
                              {"dsize", dsize},
                              {"wgsize", wgsize},
                              {"device", decision.deviceType},
                              {"probability", decision.probability}};
        if (!decision.modelDevice.empty()) out["device_name"] = decision.modelDevice;
        std::cout << out.dump() << "\n";
      } else {
        char probability[32];
        std::snprintf(probability, sizeof probability, "%.4f", decision.probability);
        std::cout << data::csvRow({std::to_string(table.rowLines[r]), file, decision.kernel,
                                   row[columns.size], row[columns.wgsize], decision.deviceType,
                                   decision.modelDevice, probability});
      }
    } catch (const std::exception& e) {
      if (exitCodeOf(e) != kExitBadInput) throw;
      std::cout.flush();
      std::cerr << "deeptune: " << e.what() << "\n";
      ++failed;
    }
    if (showProgress && ((r + 1) % kProgressEvery == 0 || r + 1 == table.rows.size())) {
      progress.update(std::to_string(r + 1) + "/" + std::to_string(table.rows.size()) +
                          " launches (" + std::to_string(sources.size()) + " kernel files)",
                      r + 1 == table.rows.size());
    }
  }
  if (failed == 0) return kExitOk;
  std::cerr << "deeptune: predict: " << failed << " of " << table.rows.size()
            << " launches failed\n";
  return kExitBadInput;
}

}  // namespace deeptune::cli
