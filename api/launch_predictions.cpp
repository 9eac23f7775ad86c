// `predict --launches`: the device of every launch of a CSV, each kernel file read once, and the
// CSV or JSON line of each decision.
#include "api/launch_predictions.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "api/predictor.hpp"
#include "data/csv_reader.hpp"
#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "data/source_options.hpp"

namespace deeptune::api {

namespace {

/// The launches of `path`, whose first row must be a header naming `file` (a file without one
/// is told so, rather than that its first launch lacks a column).
std::unique_ptr<data::CsvTable> launchesOf(const std::string& path) {
  auto table = std::make_unique<data::CsvTable>(data::readCsv(path));
  if (!table->findColumn("file")) {
    const bool headerless =
        std::any_of(table->header.begin(), table->header.end(), [](const std::string& field) {
          return field.size() > 3 && field.compare(field.size() - 3, 3, ".cl") == 0;
        });
    if (headerless) {
      throw data::DataError(table->source, table->headerLine, 1,
                            "no header row: a launches file starts with one naming its columns, "
                            "e.g. file,kernel,transfer,wgsize (kernels/launches.csv)");
    }
  }
  return table;
}

}  // namespace

LaunchTable::LaunchTable(const std::string& path)
    : table_(launchesOf(path)),
      folder_(std::filesystem::path(path).parent_path().string()),
      file_(table_->column("file")),
      size_(0),
      wgsize_(table_->column("wgsize")),
      kernel_(table_->findColumn("kernel")),
      buildOptions_(table_->findColumn("build_options")) {
  const auto dsize = table_->findColumn("dsize");
  const auto transfer = table_->findColumn("transfer");
  if (dsize.has_value() == transfer.has_value()) {
    throw data::DataError(table_->source, table_->headerLine, 1,
                          "a launches file has one column dsize or transfer (the bytes the "
                          "launch moves)");
  }
  size_ = dsize ? *dsize : *transfer;
}

LaunchTable::~LaunchTable() = default;

size_t LaunchTable::size() const { return table_->rows.size(); }

LaunchDecision LaunchTable::decide(size_t r, Predictor& predictor) {
  const data::CsvTable& table = *table_;
  const std::vector<std::string>& row = table.rows[r];
  LaunchDecision launch;
  launch.line = table.rowLines[r];
  launch.file = row[file_];
  if (launch.file.empty()) throw table.errorAt(r, file_, "no kernel file");
  launch.dsize = table.doubleAt(r, size_);
  launch.wgsize = table.doubleAt(r, wgsize_);
  launch.dsizeText = row[size_];
  launch.wgsizeText = row[wgsize_];
  try {
    checkLaunchSizes(launch.dsize, launch.wgsize);
  } catch (const std::exception& e) {
    throw table.errorAt(r, size_, e.what());
  }
  data::SourceOptions options;
  if (buildOptions_) {
    try {
      options = data::sourceOptionsFromBuildFlags(row[*buildOptions_]);
    } catch (const data::DataError& e) {
      throw table.errorAt(r, *buildOptions_, e.what());
    }
  }
  const std::filesystem::path file(launch.file);
  const std::string resolved =
      (file.is_absolute() ? file : std::filesystem::path(folder_) / file).string();
  auto source = sources_.find(resolved);
  if (source == sources_.end()) {
    std::string text = resolved == "-" ? data::readStandardInput(data::kMaxSourceBytes)
                                       : data::readFileBytes(resolved, data::kMaxSourceBytes);
    source = sources_.emplace(resolved, std::move(text)).first;
  }
  const std::string kernel = kernel_ ? row[*kernel_] : "";
  launch.decision =
      predictor.predict(source->second, resolved, kernel, launch.dsize, launch.wgsize, options);
  return launch;
}

std::string launchCsvHeader() {
  return data::csvRow({"line", "file", "kernel", "dsize", "wgsize", "device", "device_name",
                       "probability", "method"});
}

std::string launchCsvRow(const LaunchDecision& launch) {
  const Decision& decision = launch.decision;
  char probability[32];
  std::snprintf(probability, sizeof probability, "%.4f", decision.probability);
  return data::csvRow({std::to_string(launch.line), launch.file, decision.kernel, launch.dsizeText,
                       launch.wgsizeText, decision.deviceType, decision.modelDevice, probability,
                       decision.method});
}

std::string launchJson(const LaunchDecision& launch) {
  const Decision& decision = launch.decision;
  nlohmann::json out = {{"line", launch.line},
                        {"file", launch.file},
                        {"kernel", decision.kernel},
                        {"dsize", launch.dsize},
                        {"wgsize", launch.wgsize},
                        {"device", decision.deviceType},
                        {"probability", decision.probability},
                        {"method", decision.method}};
  if (!decision.modelDevice.empty()) out["device_name"] = decision.modelDevice;
  return out.dump();
}

}  // namespace deeptune::api
