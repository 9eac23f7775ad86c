// The CSV `measure --task coarsening` writes: the columns of pact-2014-runtimes.csv that train
// and evaluate read (kernel, cf, runtime_<device>), the statuses, and how its rows are named.
#include "runtime/coarsening_csv.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>

#include "runtime/message_summary.hpp"
#include "runtime/status.hpp"

namespace deeptune::runtime {

std::vector<std::string> coarseningDeviceLabels(const std::vector<DeviceInfo>& devices) {
  std::vector<std::string> labels;
  for (const DeviceInfo& d : devices) {
    std::string label;
    for (char c : d.name) {
      const bool kept = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-';
      label += kept ? c : '_';
    }
    if (label.empty()) label = "device";
    if (std::find(labels.begin(), labels.end(), label) != labels.end()) {
      label += "_" + std::to_string(d.index);
    }
    labels.push_back(label);
  }
  return labels;
}

std::vector<std::string> coarseningCsvHeader(const std::vector<std::string>& labels) {
  std::vector<std::string> columns = {"kernel", "cf"};
  for (const std::string& label : labels) columns.push_back("runtime_" + label);
  for (const std::string& label : labels) columns.push_back("status_" + label);
  columns.push_back("message");
  columns.push_back("src");
  return columns;
}

CoarseningRow coarseningCsvRow(const std::string& name, const FactorRun& run, size_t deviceCount,
                               const std::string& src) {
  CoarseningRow row;
  row.statuses.assign(deviceCount, "REFUSED");
  std::vector<std::string> times(deviceCount);
  std::string message = run.refusal;
  for (size_t d = 0; d < deviceCount && d < run.devices.size() && run.refusal.empty(); ++d) {
    const Measurement& m = run.devices[d];
    row.statuses[d] = statusName(m.status);
    if (const auto ns = kernelTimeNs(m)) {
      char text[32];
      std::snprintf(text, sizeof text, "%.0f", *ns);
      times[d] = text;
    } else if (message.empty()) {
      message = summarizeMessage(m.message);
    }
  }
  row.fields = {name, std::to_string(run.factor)};
  row.fields.insert(row.fields.end(), times.begin(), times.end());
  row.fields.insert(row.fields.end(), row.statuses.begin(), row.statuses.end());
  row.fields.push_back(message);
  row.fields.push_back(src);
  return row;
}

std::vector<std::string> uniqueKernelNames(const std::vector<FileKernel>& kernels) {
  std::map<std::string, int> count;
  for (const FileKernel& k : kernels) ++count[k.kernel];
  std::vector<std::string> names;
  for (const FileKernel& k : kernels) {
    names.push_back(count[k.kernel] > 1
                        ? std::filesystem::path(k.file).stem().string() + ":" + k.kernel
                        : k.kernel);
  }
  return names;
}

}  // namespace deeptune::runtime
