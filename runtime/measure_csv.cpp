// The CSV that `deeptune measure` writes.
#include "runtime/measure_csv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "runtime/message_summary.hpp"
#include "runtime/stats.hpp"

namespace deeptune::runtime {

namespace {

const char* const kDeviceColumns[] = {"name",       "type",   "status", "checks",   "wgsize",
                                      "kernel_ns",  "h2d_ns", "d2h_ns", "total_ns", "ci_low_ns",
                                      "ci_high_ns", "runs",   "message"};

std::string nanoseconds(double ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", std::round(ns));
  return text;
}

std::string milliseconds(double ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", ns / 1e6);
  return text;
}

}  // namespace

std::vector<std::string> measureCsvHeader(const std::vector<DeviceInfo>& devices) {
  std::vector<std::string> header = {"benchmark", "dataset", "gsize",       "wgsize",
                                     "transfer",  "oracle",  "runtime_cpu", "runtime_gpu"};
  for (const DeviceInfo& device : devices) {
    for (const char* column : kDeviceColumns) {
      header.push_back("dev" + std::to_string(device.index) + "_" + column);
    }
  }
  header.push_back("src");
  return header;
}

std::vector<std::string> measureCsvRow(const std::string& benchmark, const KernelResult& result,
                                       const std::vector<DeviceInfo>& devices,
                                       const std::string& src) {
  std::vector<TimingSummary> summaries;
  std::optional<size_t> wgsize;
  std::optional<uint64_t> transfer;
  for (const Measurement& m : result.devices) {
    summaries.push_back(summarize(m.runs));
    if (m.wgsize != 0) wgsize = std::min(wgsize.value_or(m.wgsize), m.wgsize);
    if (m.wgsize != 0 && !transfer) transfer = m.transferBytes;
  }
  std::optional<size_t> cpu, gpu, fastest;
  bool hasCpu = false, hasGpu = false;
  for (size_t d = 0; d < result.devices.size() && d < devices.size(); ++d) {
    hasCpu = hasCpu || devices[d].type == "CPU";
    hasGpu = hasGpu || devices[d].type == "GPU";
    if (!result.devices[d].hasTimings()) continue;
    if (devices[d].type == "CPU" && !cpu) cpu = d;
    if (devices[d].type == "GPU" && !gpu) gpu = d;
    if (!fastest || summaries[d].totalNs < summaries[*fastest].totalNs) fastest = d;
  }
  std::string oracle;
  if (hasCpu && hasGpu) {
    if (cpu && gpu) oracle = summaries[*cpu].totalNs <= summaries[*gpu].totalNs ? "CPU" : "GPU";
  } else if (fastest) {
    oracle = devices[*fastest].name;
  }
  std::vector<std::string> row = {benchmark,
                                  std::to_string(result.gsize),
                                  std::to_string(result.gsize),
                                  wgsize ? std::to_string(*wgsize) : "",
                                  transfer ? std::to_string(*transfer) : "",
                                  oracle,
                                  cpu ? milliseconds(summaries[*cpu].totalNs) : "",
                                  gpu ? milliseconds(summaries[*gpu].totalNs) : ""};
  for (size_t d = 0; d < devices.size(); ++d) {
    const Measurement* m = d < result.devices.size() ? &result.devices[d] : nullptr;
    const bool timed = m != nullptr && m->hasTimings();
    std::string checks;
    if (m != nullptr) {
      for (Status s : m->failedChecks) checks += (checks.empty() ? "" : "+") + statusName(s);
    }
    row.push_back(devices[d].name);
    row.push_back(devices[d].type);
    row.push_back(m != nullptr ? statusName(m->status) : "");
    row.push_back(checks);
    row.push_back(m != nullptr && m->wgsize != 0 ? std::to_string(m->wgsize) : "");
    row.push_back(timed ? nanoseconds(summaries[d].kernelNs) : "");
    row.push_back(timed ? nanoseconds(summaries[d].h2dNs) : "");
    row.push_back(timed ? nanoseconds(summaries[d].d2hNs) : "");
    row.push_back(timed ? nanoseconds(summaries[d].totalNs) : "");
    row.push_back(timed ? nanoseconds(summaries[d].ciLowNs) : "");
    row.push_back(timed ? nanoseconds(summaries[d].ciHighNs) : "");
    row.push_back(timed ? std::to_string(m->runs.size()) : "");
    row.push_back(m != nullptr ? summarizeMessage(m->message) : "");
  }
  row.push_back(src);
  return row;
}

}  // namespace deeptune::runtime
